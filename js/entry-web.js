// Browser and bundler entry: call `await init()` (fetches editblocks_bg.wasm
// next to this file, or from the URL/Response/bytes you pass) or
// `initSync(bytes)` before anything else; until then every function throws
// "call init() (or initSync(bytes)) before using <name>" (js/guard.js).
import rawInit, { initSync as rawInitSync } from 'editblocks-raw';
import * as publicApi from './index.js';
import { guardApi } from './guard.js';

/** Loads the wasm module; resolves when the API is ready. */
function init(moduleOrPath) {
  return rawInit(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath });
}

/** Loads the wasm module synchronously from its bytes or a compiled WebAssembly.Module. */
function initSync(module) {
  if (module == null) throw new TypeError('editblocks: initSync needs the bytes of editblocks_bg.wasm (or a WebAssembly.Module)');
  return rawInitSync({ module });
}

/** The package's API: every function guarded (js/guard.js). */
export const api = guardApi({ ...publicApi, init, initSync }, ['init', 'initSync']);
