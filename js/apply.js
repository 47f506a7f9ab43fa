// apply: being written.
export {};
