// How an entry loads its wasm module, shared by the full entries
// (entry-node.js, entry-web.js) and the lite ones (entry-node-lite.js,
// entry-web-lite.js): each passes its own glue's loaders and wasm file name.

const CSP_ADVICE =
  "editblocks: the page's Content-Security-Policy does not allow WebAssembly to be compiled; " +
  "add 'wasm-unsafe-eval' to its script-src (script-src 'self' 'wasm-unsafe-eval')";

/** Whether a failed load was the browser refusing WebAssembly under the page's CSP. */
function blockedByPolicy(error) {
  const message = String(error?.message ?? '');
  return /Content Security Policy|unsafe-eval/i.test(message);
}

/**
 * Browsers and bundlers: `init()` fetches the wasm file next to the bundle
 * (or the URL/Response/bytes/Module passed); `initSync(bytes)` for workers.
 */
export function webLoaders(rawInit, rawInitSync, wasmName) {
  /** Loads the wasm module; resolves when the API is ready. */
  function init(moduleOrPath) {
    return rawInit(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath }).catch((error) => {
      throw blockedByPolicy(error) ? new Error(CSP_ADVICE, { cause: error }) : error;
    });
  }
  /** Loads the wasm module synchronously from its bytes or a compiled WebAssembly.Module. */
  function initSync(module) {
    if (module == null) throw new TypeError(`editblocks: initSync needs the bytes of ${wasmName} (or a WebAssembly.Module)`);
    try {
      return rawInitSync({ module });
    } catch (error) {
      throw blockedByPolicy(error) ? new Error(CSP_ADVICE, { cause: error }) : error;
    }
  }
  return { init, initSync };
}

/**
 * Node: instantiates the module synchronously from `bytes` (read by the
 * entry), so no init call is needed; init/initSync exist so code written for
 * browsers runs unchanged.
 */
export function nodeLoaders(rawInitSync, bytes) {
  rawInitSync({ module: new WebAssembly.Module(bytes) });
  /** Nothing to do in Node: the module is ready on import. */
  function init() {
    return Promise.resolve();
  }
  /** Nothing to do in Node: the module is ready on import. */
  function initSync() {}
  return { init, initSync };
}
