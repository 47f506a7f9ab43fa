// Node entry of `editblocks/lite` (pkg/node/lite.cjs, ESM face lite.mjs):
// the parse-and-render module, instantiated synchronously on require from the
// bytes carried in the bundle, as entry-node.js does for the full one.
import wasmBytes from 'editblocks-wasm-bytes';
import { initSync as rawInitSync } from 'editblocks-raw';
import * as liteApi from './lite.js';
import { guardApi } from './guard.js';
import { nodeLoaders } from './loading.js';

const { init, initSync } = nodeLoaders(rawInitSync, wasmBytes);

/** The lite API: every function guarded (js/guard.js). */
export const api = guardApi({ ...liteApi, init, initSync }, ['init', 'initSync']);
