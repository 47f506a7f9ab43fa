// Node's built-in modules for nodeHost, fetched through
// process.getBuiltinModule (Node >= 20.16) rather than require(). The Node
// entry ships as CommonJS; when a user's bundler turns it into ES module
// output (esbuild --bundle --format=esm --platform=node, serverless packers),
// a require() of a builtin becomes a shim that throws "Dynamic require of
// node:fs is not supported" at import. getBuiltinModule is a plain call that
// every bundler leaves alone; require() stays only for older Node.
/* global require */
const builtin = (name) => globalThis.process?.getBuiltinModule?.(name) ?? require(name);

export const fs = builtin('node:fs');
export const os = builtin('node:os');
export const path = builtin('node:path');
export const crypto = builtin('node:crypto');
export const { execFileSync } = builtin('node:child_process');
