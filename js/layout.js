// The core's tables, read from the module once: the layout of the parser's
// records (positions of each field, record kinds, format, section and
// operation names, the line-end rule), defined in bindings/wasm/src/records.rs,
// the result tables, the option names and each function's options
// (bindings/wasm/src/results.rs).
import * as raw from 'editblocks-raw';

let layout = null;
let results = null;
let options = null;
let schemas = null;

/**
 * The core's result tables: { statuses, errorKinds, has: { reason, … } }
 * (not in editblocks/lite, whose module binds no applier).
 */
export const resultLayout = () => (results ??= JSON.parse(raw.resultLayout()));

/** What each applying function's options take: optionSchema('applyEdits') → { dryRun: 'boolean', … } (bindings/wasm/src/results.rs OPTION_SCHEMAS). */
export const optionSchema = (fn) => (schemas ??= JSON.parse(raw.optionSchemas()))[fn];

/** The names each enumerated option takes: { mode, matching, trailingNewline, theme, layout, api }. */
export const optionNames = () => (options ??= JSON.parse(raw.optionNames()));

/** The parser's record layout, with the derived lookups the decoders use. */
export const parserLayout = () => (layout ??= readLayout());

function readLayout() {
  const l = JSON.parse(raw.parserLayout());
  l.isPatch = l.formats.map((_, i) => l.patchFormats.includes(i));
  l.lineEndRe = new RegExp(l.lineEnd, 'g');
  l.hunkWidth = Object.keys(l.hunk).length;
  for (const kind of ['update', 'start', 'json', 'head']) l[kind].size = Object.keys(l[kind]).length;
  l.hunkFlagBits = Object.fromEntries(l.hunkFlags.map((name, i) => [name, 1 << i]));
  return l;
}
