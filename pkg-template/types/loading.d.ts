/**
 * Browsers and bundlers: loads the wasm module (fetched next to the package's
 * web/index.js unless you pass a URL, Response, bytes or WebAssembly.Module).
 * In Node this resolves at once: the module is ready on import.
 */
export function init(moduleOrPath?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<unknown>;

/** Loads the wasm module synchronously from its bytes (e.g. in a VS Code web worker). No-op in Node. */
export function initSync(module: BufferSource | WebAssembly.Module): unknown;
