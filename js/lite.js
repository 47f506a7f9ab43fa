// The public API of `editblocks/lite`: parsing and rendering only, from the
// same modules as the full entry (so the same names give the same results),
// bound to the smaller wasm module built without the cargo feature `full`.
// Not in it: applying edits, tool calls, hashline, prompts and schemas, and
// the live preview (EditStream options.preview, EditPreview, incremental
// stream rendering), which locates blocks with the apply engine.
export { parseEdits, detectFormat, EditStream } from './parser.js';
export { diffBlock, renderEditBlock, renderInProgressEditBlock, renderEditsSummary } from './render.js';
export { detectShellSuggestions } from './common.js';
