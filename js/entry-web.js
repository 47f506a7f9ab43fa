// Browser and bundler entry: call `await init()` (fetches editblocks_bg.wasm
// next to this file, or from the URL/Response/bytes you pass) or
// `initSync(bytes)` before anything else.
import rawInit, { initSync as rawInitSync } from 'editblocks-raw';

export * from './index.js';

/** Loads the wasm module; resolves when the API is ready. */
export function init(moduleOrPath) {
  return rawInit(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath });
}

/** Loads the wasm module synchronously from its bytes or a compiled WebAssembly.Module. */
export function initSync(module) {
  if (module == null) throw new TypeError('editblocks: initSync needs the bytes of editblocks_bg.wasm (or a WebAssembly.Module)');
  return rawInitSync({ module });
}
