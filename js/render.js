// Diffs and HTML renderers. The HTML is built (and escaped) in the core; this
// layer checks arguments, so misuse is a JS error that names the problem.
import {
  diffBlockPacked,
  renderEditBlockHtml,
  renderInProgressHtml,
  renderPendingHtml,
  renderSummaryHtml,
} from 'editblocks-raw';
// renderFileChange is not in editblocks/lite, whose module leaves its binding out.
import * as raw from 'editblocks-raw';
import { checkOptions } from './options.js';
import { plainCopy } from './boundary.js';
import { EditStream } from './parser.js';
import { resultLayout } from './layout.js';

const text = (value, what) => {
  if (typeof value !== 'string') {
    throw new TypeError(`editblocks: ${what} must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  return value;
};

const KINDS = ['context', 'removed', 'added'];
// Every renderer's `theme` (the class on the rendered root) and the diffs' `layout`: the core's names.
const THEMES = 'enum:theme';
const LAYOUTS = 'enum:layout';
const utf8 = new TextEncoder();

/**
 * Line diff of two texts; paired changed lines carry grapheme-level `spans`.
 * The array's `cutShort` (not enumerable) is `true` when the work budget cut
 * the diff short: less minimal than possible, or some changed lines without
 * spans. It depends only on the texts, never on the machine's speed.
 */
export function diffBlock(oldText, newText) {
  text(oldText, 'diffBlock(oldText, …)');
  text(newText, 'diffBlock(…, newText)');
  // Bytes cross into wasm with one native copy; strings would be encoded by a JS loop.
  const packed = diffBlockPacked(utf8.encode(oldText), utf8.encode(newText));
  const out = [];
  Object.defineProperty(out, 'cutShort', { value: packed[0] === 0 });
  let i = 1;
  while (i < packed.length) {
    const kind = packed[i];
    const oldLine = packed[i + 1] || null;
    const newLine = packed[i + 2] || null;
    // The line's text is a range of its own text, from the core's line model.
    const lineText = (kind === 2 ? newText : oldText).slice(packed[i + 3], packed[i + 4]);
    const spanSlots = packed[i + 5];
    i += 6;
    const line = { kind: KINDS[kind], text: lineText, oldLine, newLine };
    if (spanSlots > 0) {
      const spans = [];
      let at = 0;
      for (let k = 1; k < spanSlots; k++, i++) {
        const len = packed[i] >>> 1;
        spans.push({ text: lineText.slice(at, at + len), changed: (packed[i] & 1) === 1 });
        at += len;
      }
      line.spans = spans;
    }
    out.push(line);
  }
  return out;
}

/** Accepts an array of results, an apply result ({ results }), one result, or nothing. */
function resultList(results) {
  if (results == null) return undefined;
  if (Array.isArray(results)) return results;
  if (typeof results === 'object' && Array.isArray(results.results)) return results.results;
  if (typeof results === 'object') return [results];
  throw new TypeError('editblocks: renderEditBlock(block, results) takes an array of results, an apply result or one result');
}

/**
 * HTML for a parsed edit block: header (path, status badge), failure reason,
 * and the diff with changed spans. `options.index` picks the result by block index.
 */
export function renderEditBlock(block, results, options) {
  if (block == null || typeof block !== 'object') throw new TypeError('editblocks: renderEditBlock needs an edit block object');
  const checked = checkOptions(options, 'renderEditBlock', { index: 'integer', theme: THEMES, layout: LAYOUTS });
  const index = checked?.index;
  if (index !== undefined && !(Number.isInteger(index) && index >= 0 && index <= 0xffffffff)) {
    throw new TypeError(`editblocks: renderEditBlock options.index must be a block index (an integer from 0 to 4294967295), got ${index}`);
  }
  const list = resultList(results);
  return renderEditBlockHtml(plainCopy(block, 'renderEditBlock', 'block'), list === undefined ? undefined : plainCopy(list, 'renderEditBlock', 'results'), index, { theme: checked?.theme, layout: checked?.layout });
}

/**
 * HTML for a block still being written. `partialLines` are the lines after the
 * path line so far (an array, or one string split at line breaks). Or pass
 * what `EditStream.pending()` returned, alone.
 */
export function renderInProgressEditBlock(filePath, partialLines, options) {
  if (filePath instanceof EditStream) return renderPreview(filePath, partialLines);
  const pendingForm = filePath !== null && typeof filePath === 'object';
  // renderInProgressEditBlock(pending, options?): the second argument is the options.
  if (pendingForm && options === undefined && partialLines !== null && typeof partialLines === 'object' && !Array.isArray(partialLines)) {
    options = partialLines;
    partialLines = undefined;
  }
  const theme = checkOptions(options, 'renderInProgressEditBlock', { theme: THEMES })?.theme;
  if (pendingForm && partialLines === undefined) {
    const pending = filePath;
    if (typeof pending.filePath !== 'string') {
      throw new TypeError('editblocks: renderInProgressEditBlock(pending) needs what EditStream.pending() returned (with filePath and sections)');
    }
    if (!Array.isArray(pending.sections)) {
      throw new TypeError('editblocks: renderInProgressEditBlock(pending) needs pending.sections (an array of { section, lines })');
    }
    const copy = plainCopy(pending, 'renderInProgressEditBlock', 'pending');
    const partial = typeof copy.partialLine === 'string' ? copy.partialLine : undefined;
    if (typeof copy.filePath !== 'string' || !Array.isArray(copy.sections)) {
      throw new TypeError('editblocks: renderInProgressEditBlock(pending) needs what EditStream.pending() returned (with filePath and sections)');
    }
    return renderPendingHtml(copy.filePath, copy.sections, partial, theme);
  }
  text(filePath, 'renderInProgressEditBlock(filePath, …)');
  let lines = partialLines == null ? [] : partialLines;
  if (typeof lines === 'string') lines = lines.split('\n');
  if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string')) {
    throw new TypeError('editblocks: renderInProgressEditBlock(…, partialLines) takes an array of strings');
  }
  return renderInProgressHtml(filePath, lines, theme);
}

/**
 * `renderInProgressEditBlock(stream, options?)`: the open block drawn in
 * place in its file (a stream made with options.preview): real file line
 * numbers, context above and below, changed spans, the state. With
 * `{ incremental: true }`, only what changed since the last call, as
 * `{ reset?, header?, append?, replace?, partial?, below? }` (see
 * applyPreviewDelta); null when no block is open.
 */
function renderPreview(stream, options) {
  const checked = checkOptions(options, 'renderInProgressEditBlock(stream, …)', { incremental: 'boolean', theme: THEMES });
  const incremental = checked?.incremental === true;
  const theme = checked?.theme;
  if (stream._preview === null && !incremental) {
    const pending = stream.pending();
    return pending === null ? '' : renderInProgressEditBlock(pending, { theme });
  }
  const html = stream._previewHtml(incremental, theme);
  return html ?? (incremental ? null : '');
}

/**
 * HTML for the summary banner from an apply result or an array of results.
 * `options.retryPromptPrepared` shows the retry note when you pass results only;
 * `options.retryNote` rewords it.
 */
export function renderEditsSummary(results, options) {
  if (results == null || typeof results !== 'object' || (!Array.isArray(results) && !Array.isArray(results.results))) {
    const what = results != null && typeof results === 'object' && 'status' in results ? 'one result; wrap it in an array' : results === null ? 'null' : typeof results;
    throw new TypeError(`editblocks: renderEditsSummary takes an array of results or an apply result ({ results }), got ${what}`);
  }
  const copy = plainCopy(results, 'renderEditsSummary', 'results');
  const list = Array.isArray(copy) ? copy : copy.results;
  list.forEach((r, i) => {
    if (r == null || typeof r !== 'object') throw new TypeError(`editblocks: renderEditsSummary: result ${i} is ${r === null ? 'null' : typeof r}, not a result object`);
    const line = r.estimatedLine;
    if (line != null && !(Number.isInteger(line) && line >= 1)) {
      throw new TypeError(`editblocks: renderEditsSummary: result ${i} (${JSON.stringify(r.path ?? r.filePath ?? '')}) has estimatedLine ${JSON.stringify(line)}; it must be a 1-based line number or absent`);
    }
  });
  return renderSummaryHtml(copy, checkOptions(options, 'renderEditsSummary', { retryPromptPrepared: 'boolean', retryNote: 'string', theme: THEMES }));
}

/**
 * HTML for one entry of a result's `fileChanges` (text blocks, tool calls,
 * hashline calls and patches alike), drawn as renderEditBlock draws a block:
 * the diff of the file before and after, numbered by file line.
 * `options.status` adds the badge ('applied', 'validated', …).
 */
export function renderFileChange(change, options) {
  checkFileChange(change, 'renderFileChange');
  const checked = checkOptions(options, 'renderFileChange', { status: resultLayout().statuses, theme: THEMES, layout: LAYOUTS, context: 'any' });
  const context = checkContext(checked?.context, 'renderFileChange', true);
  const movedFrom = typeof change.movedFrom === 'string' ? change.movedFrom : undefined;
  return raw.renderFileChangeHtml(change.path, change.before ?? undefined, change.after ?? undefined, movedFrom, checked?.status, { theme: checked?.theme, layout: checked?.layout, context });
}

/**
 * One entry of a result's `fileChanges` as a unified diff (`diff -u`: `--- a/`
 * and `+++ b/` headers, `/dev/null` for a created or deleted file, hunks with
 * `options.context` lines around each change, default 3), which git and
 * patch apply. '' when nothing changed.
 */
export function unifiedDiff(change, options) {
  checkFileChange(change, 'unifiedDiff');
  const checked = checkOptions(options, 'unifiedDiff', { context: 'any' });
  const context = checkContext(checked?.context, 'unifiedDiff', false) ?? 3;
  const movedFrom = typeof change.movedFrom === 'string' ? change.movedFrom : undefined;
  return raw.unifiedDiffText(change.path, change.before ?? undefined, change.after ?? undefined, movedFrom, context);
}

function checkFileChange(change, what) {
  if (change === null || typeof change !== 'object' || Array.isArray(change) || typeof change.path !== 'string') {
    throw new TypeError(`editblocks: ${what} needs one entry of a result's fileChanges ({ path, before, after })`);
  }
  for (const side of ['before', 'after']) {
    const v = change[side];
    if (v !== null && v !== undefined && typeof v !== 'string') {
      throw new TypeError(`editblocks: ${what}: change.${side} must be a string or null (null: the file does not exist on that side), got ${typeof v}`);
    }
  }
}

function checkContext(context, what, allowAll) {
  if (context === undefined || (allowAll && context === 'all')) return context;
  if (!(Number.isInteger(context) && context >= 0 && context <= 0xffffffff)) {
    throw new TypeError(`editblocks: ${what} option context must be a whole number of lines${allowAll ? " or 'all'" : ''}, got ${JSON.stringify(context)}`);
  }
  return context;
}
