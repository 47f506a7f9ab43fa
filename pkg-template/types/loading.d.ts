// These types name only what ES2023 and Node's own types declare, so a Node
// project compiled without the DOM library ("lib": ["es2023"], "types": ["node"])
// type-checks the package too. Where the DOM (or a worker's) types are present,
// Request, Response and WebAssembly.Module are accepted as well.

/** `WebAssembly.Module` where the project's types declare it; otherwise never. */
type CompiledModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : never;
/** `Request` where the project's types declare it (the DOM, or Node's fetch types). */
type FetchRequest = typeof globalThis extends { Request: abstract new (...args: never[]) => infer R } ? R : never;
/** `Response` where the project's types declare it. */
type FetchResponse = typeof globalThis extends { Response: abstract new (...args: never[]) => infer R } ? R : never;
/** The module's bytes: an ArrayBuffer or any view of one (Uint8Array, Buffer, DataView…). */
type ModuleBytes = ArrayBuffer | ArrayBufferView;

/**
 * Browsers and bundlers: loads the wasm module (fetched next to the package's
 * web/index.js unless you pass a URL, Response, bytes or WebAssembly.Module).
 * In Node this resolves at once: the module is ready on import.
 */
export function init(moduleOrPath?: string | URL | FetchRequest | FetchResponse | ModuleBytes | CompiledModule): Promise<unknown>;

/** Loads the wasm module synchronously from its bytes (e.g. in a VS Code web worker). No-op in Node. */
export function initSync(module: ModuleBytes | CompiledModule): unknown;
