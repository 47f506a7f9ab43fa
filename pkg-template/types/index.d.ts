// TypeScript types for the whole editblocks contract, one file per feature.
export * from './parser';
export * from './apply';
export * from './tools';
export * from './hashline';
export * from './render';
export * from './common';
export * from './loading';
