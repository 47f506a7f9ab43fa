// nodeHost: being written.
export function nodeHost() { throw new Error('nodeHost: not yet built'); }
