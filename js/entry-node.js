// Node entry: the wasm module is loaded synchronously when this file is
// required, so no init call is needed. init/initSync exist so code written
// for browsers runs unchanged.
export * from './index.js';
export { nodeHost } from './node-host.js';

/** Nothing to do in Node: the module is ready on import. */
export function init() {
  return Promise.resolve();
}

/** Nothing to do in Node: the module is ready on import. */
export function initSync() {}
