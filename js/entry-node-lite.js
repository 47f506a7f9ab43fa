// Node entry of `editblocks/lite` (pkg/node/lite.cjs, ESM face lite.mjs):
// the parse-and-render module, instantiated synchronously on require from
// ../web/editblocks_lite_bg.wasm, as entry-node.js does for the full one.
import fs from 'node:fs';
import nodePath from 'node:path';
import { initSync as rawInitSync } from 'editblocks-raw';
import * as liteApi from './lite.js';
import { guardApi } from './guard.js';
import { nodeLoaders } from './loading.js';

// __dirname: this file only ever runs bundled as CommonJS.
const { init, initSync } = nodeLoaders(rawInitSync, fs.readFileSync(nodePath.join(__dirname, '..', 'web', 'editblocks_lite_bg.wasm')));

/** The lite API: every function guarded (js/guard.js). */
export const api = guardApi({ ...liteApi, init, initSync }, ['init', 'initSync']);
