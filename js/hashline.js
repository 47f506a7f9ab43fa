// hashline: being written.
export {};
