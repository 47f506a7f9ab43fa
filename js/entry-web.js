// Browser and bundler entry: call `await init()` (fetches editblocks_bg.wasm
// next to this file, or from the URL/Response/bytes you pass) or
// `initSync(bytes)` before anything else; until then every function throws
// "call init() (or initSync(bytes)) before using <name>" (js/guard.js).
import rawInit, { initSync as rawInitSync } from 'editblocks-raw';
import * as publicApi from './index.js';
import { guardApi } from './guard.js';
import { webLoaders } from './loading.js';

const { init, initSync } = webLoaders(rawInit, rawInitSync, 'editblocks_bg.wasm');

/** The package's API: every function guarded (js/guard.js). */
export const api = guardApi({ ...publicApi, init, initSync }, ['init', 'initSync']);
