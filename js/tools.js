// tools: being written.
export {};
