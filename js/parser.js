// parser: being written.
export {};
