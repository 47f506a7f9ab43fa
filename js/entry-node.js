// Node entry: the wasm module is instantiated synchronously when this file is
// required, from bytes carried inside the bundle itself ('editblocks-wasm-bytes',
// written by scripts/build.mjs), so no init call is needed and no file is read:
// the entry keeps working when a bundler (Next.js, esbuild, a serverless
// packer) moves it away from the package folder. init/initSync exist so code
// written for browsers runs unchanged. Built as CommonJS (pkg/node/index.cjs);
// the ESM face (index.mjs) re-exports this one instance.
import wasmBytes from 'editblocks-wasm-bytes';
import { initSync as rawInitSync } from 'editblocks-raw';
import * as publicApi from './index.js';
import { nodeHost } from './node-host.js';
import { guardApi } from './guard.js';
import { nodeLoaders } from './loading.js';

const { init, initSync } = nodeLoaders(rawInitSync, wasmBytes);

/** The package's API: every function guarded (js/guard.js). */
export const api = guardApi({ ...publicApi, nodeHost, init, initSync }, ['init', 'initSync']);
