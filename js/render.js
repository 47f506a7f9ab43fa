// render: being written.
export {};
