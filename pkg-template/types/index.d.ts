// TypeScript types for the whole editblocks contract, one file per feature.
// The build derives types/web.d.ts (editblocks/web: every line but the Node-only
// ones, marked `node only`) and a .d.cts twin of each file for require().
export * from './parser.js';
export * from './apply.js';
export * from './tools.js';
export * from './hashline.js';
export * from './render.js';
export * from './preview.js';
export * from './common.js';
export * from './loading.js';
export * from './vscode-host.js';
export * from './node-host.js'; // node only
