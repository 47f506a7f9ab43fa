// Node entry: the wasm module is instantiated synchronously when this file is
// required, from the package's one editblocks_bg.wasm (next to the browser
// entry, in ../web/), so no init call is needed. init/initSync exist so code
// written for browsers runs unchanged. Built as CommonJS (pkg/node/index.cjs);
// the ESM face (index.mjs) re-exports this one instance.
import fs from 'node:fs';
import nodePath from 'node:path';
import { initSync as rawInitSync } from 'editblocks-raw';
import * as publicApi from './index.js';
import { nodeHost } from './node-host.js';
import { guardApi } from './guard.js';
import { nodeLoaders } from './loading.js';

// __dirname: this file only ever runs bundled as CommonJS.
const { init, initSync } = nodeLoaders(rawInitSync, fs.readFileSync(nodePath.join(__dirname, '..', 'web', 'editblocks_bg.wasm')));

/** The package's API: every function guarded (js/guard.js). */
export const api = guardApi({ ...publicApi, nodeHost, init, initSync }, ['init', 'initSync']);
