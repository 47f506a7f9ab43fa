// TypeScript types for the whole editblocks contract, one file per feature.
export * from './parser.js';
export * from './apply.js';
export * from './tools.js';
export * from './hashline.js';
export * from './render.js';
export * from './preview.js';
export * from './common.js';
export * from './loading.js';
