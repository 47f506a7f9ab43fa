// Browser and bundler entry of `editblocks/lite`: `await init()` fetches
// editblocks_lite_bg.wasm next to this file (or takes what you pass), as
// entry-web.js does for the full module.
import rawInit, { initSync as rawInitSync } from 'editblocks-raw';
import * as liteApi from './lite.js';
import { guardApi } from './guard.js';
import { webLoaders } from './loading.js';

const { init, initSync } = webLoaders(rawInit, rawInitSync, 'editblocks_lite_bg.wasm');

/** The lite API: every function guarded (js/guard.js). */
export const api = guardApi({ ...liteApi, init, initSync }, ['init', 'initSync']);
