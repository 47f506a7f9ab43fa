// TypeScript types of `editblocks/lite`: parsing and rendering only, with the
// same names and types as the full entry (EditStream's options.preview and
// renderInProgressEditBlock(stream, { incremental: true }) throw there: the
// live preview is only in the full entry).
export * from './parser.js';
export * from './render.js';
export { detectShellSuggestions } from './common.js';
export * from './loading.js';
