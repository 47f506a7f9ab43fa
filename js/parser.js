// The streaming parser for the text formats: parseEdits, detectFormat,
// EditStream. The core runs in wasm; this layer checks arguments, keeps a
// split surrogate pair together across chunks, and turns what crosses the
// boundary into plain objects.
import * as raw from 'editblocks-raw';
import { onReset } from './guard.js';
import { parserLayout } from './layout.js';
import { previewDriver, drawingDriver, PendingTracker } from './preview.js';

const encoder = new TextEncoder();
let memory = null;
const buffer = () => (memory ??= raw.parserMemory()).buffer;
// Views over all of wasm memory, remade when memory grows (a grown memory
// detaches the old buffer, whose views then have byteLength 0).
let u32view = new Uint32Array(0);
const u32 = () => (u32view.byteLength === 0 ? (u32view = new Uint32Array(buffer())) : u32view);
let u8view = new Uint8Array(0);
const u8 = () => (u8view.byteLength === 0 ? (u8view = new Uint8Array(buffer())) : u8view);
// A new instance after a trap has a new memory: drop the views over the old one.
onReset(() => {
  memory = null;
  u32view = new Uint32Array(0);
  u8view = new Uint8Array(0);
});

// The UTF-8 text at `ptr` in wasm memory (a byte-order mark is text).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8At = (ptr, len) => (len === 0 ? '' : decoder.decode(u8().subarray(ptr, ptr + len)));

// Writes `text` as UTF-8 at the address `reserve(capacity)` returns (lone
// surrogates become U+FFFD); returns the byte length.
function writeInput(text, reserve) {
  const capacity = text.length * 3;
  const ptr = reserve(capacity);
  return encodeAt(text, ptr, capacity);
}

// Writes clean text (see `clean`) as UTF-8 at `ptr`; returns the byte length.
function encodeAt(text, ptr, capacity) {
  return encoder.encodeInto(text, u8().subarray(ptr, ptr + capacity)).written;
}

// The layout of the core's records (js/layout.js), kept here once read:
// the decoders below use it on every record.
let L = null;
const layout = () => (L ??= parserLayout());
/** The core's names for an EditBlock's `format` and patch `operation` (for argument checks). */
export const blockNames = () => ({ formats: layout().formats, operations: layout().operations });

// Adds `assumed` (names) and `lineHint` to a block when the core set them.
function addAssumed(block, mask, hint) {
  if (mask !== 0) block.assumed = layout().assumed.filter((_, i) => mask & (1 << i));
  if (hint !== 0) block.lineHint = hint;
  return block;
}

/**
 * A patch block from its record at `rec[k]` (layout `L.patch`): texts are
 * ranges of `text`, hunks records of `hunks` from `hunksAt` on (layout `L.hunk`, each followed
 * by its anchors' ranges); the raw block and hunk bodies flagged so are
 * ranges of `reply` (one-shot parses).
 */
function patchBlock(rec, k, text, hunks, hunksAt, reply) {
  const P = L.patch;
  const H = L.hunk;
  const block = {
    format: L.formats[rec[k + P.format]],
    filePath: text.slice(rec[k + P.pathStart], rec[k + P.pathEnd]),
    anchor: '',
    oldLines: text.slice(rec[k + P.oldStart], rec[k + P.oldEnd]),
    newLines: text.slice(rec[k + P.newStart], rec[k + P.newEnd]),
    trailingAnchor: '',
    rawBlock: (rec[k + P.operation] & L.rawInReply ? reply : text).slice(rec[k + P.rawStart], rec[k + P.rawEnd]),
    lineNumber: rec[k + P.lineNumber],
    operation: L.operations[rec[k + P.operation] & (L.rawInReply - 1)],
  };
  if (rec[k + P.moveToStart] !== L.none) block.moveTo = text.slice(rec[k + P.moveToStart], rec[k + P.moveToEnd]);
  let h = hunksAt + rec[k + P.hunksAt];
  if (rec[k + P.operation] & L.oldPathFirst) {
    block.oldPath = text.slice(hunks[h], hunks[h + 1]);
    h += 2;
  }
  const count = rec[k + P.hunkCount];
  const list = new Array(count);
  const width = L.hunkWidth;
  const flag = L.hunkFlagBits;
  for (let j = 0; j < count; j++) {
    const flags = hunks[h + H.flags];
    const hunk = {};
    const anchors = hunks[h + H.anchorCount];
    if (anchors > 0) {
      hunk.anchors = new Array(anchors);
      for (let a = 0, at = h + width; a < anchors; a++, at += 2) hunk.anchors[a] = text.slice(hunks[at], hunks[at + 1]);
    }
    if (flags & flag.hasOldStart) hunk.oldStart = hunks[h + H.oldStart];
    if (flags & flag.hasOldCount) hunk.oldCount = hunks[h + H.oldCount];
    if (flags & flag.hasNewStart) hunk.newStart = hunks[h + H.newStart];
    if (flags & flag.hasNewCount) hunk.newCount = hunks[h + H.newCount];
    const bs = hunks[h + H.bodyStart];
    const be = hunks[h + H.bodyEnd];
    hunk.lines = bs === be ? [] : (flags & flag.bodyInReply ? reply : text).slice(bs, be).split('\n');
    if (flags & flag.endOfFile) hunk.endOfFile = true;
    if (flags & flag.noNewlineOld) hunk.noNewlineOld = true;
    if (flags & flag.noNewlineNew) hunk.noNewlineNew = true;
    list[j] = hunk;
    h += width + 2 * anchors;
  }
  block.hunks = list;
  block.patch = rec[k + P.patch];
  return block;
}

// The caller's known files (options.knownFiles), one per line for the core.
function knownFiles(options, where) {
  const known = options?.knownFiles;
  if (known === undefined || known === null) return '';
  if (!Array.isArray(known) || known.some((k) => typeof k !== 'string')) throw new TypeError(`editblocks: ${where} options.knownFiles must be an array of strings`);
  return known.filter((k) => k.indexOf('\n') < 0).join('\n');
}

function formatMask(options, where) {
  if (options === undefined || options === null) return 0;
  const FORMATS = layout().formats;
  if (typeof options !== 'object') throw new TypeError(`editblocks: ${where} options must be an object`);
  const { formats } = options;
  if (formats === undefined || formats === null) return 0;
  if (!Array.isArray(formats)) throw new TypeError(`editblocks: ${where} options.formats must be an array of ${FORMATS.map((f) => `'${f}'`).join(', ')}`);
  let mask = 0;
  for (const f of formats) {
    const i = FORMATS.indexOf(f);
    if (i < 0) throw new TypeError(`editblocks: ${where} does not know the format ${JSON.stringify(f)}; use ${FORMATS.map((x) => `'${x}'`).join(', ')}`);
    mask |= 1 << i;
  }
  if (formats.length === 0) return 0;
  return mask;
}

function checkText(text, where) {
  if (typeof text !== 'string') throw new TypeError(`editblocks: ${where} expects a string, got ${text === null ? 'null' : typeof text}`);
}

// What the core sees: lone surrogates become U+FFFD (as in any UTF-8
// crossing), byte-order marks opening the reply are dropped, and every CR
// before a line end (or at the very end) goes with it: `\r\n` and `\r\r\n`
// read as `\n`. The core applies exactly this normalisation (it is
// idempotent), so offsets from the core index this string.
function wellFormed(t) {
  if (typeof t.isWellFormed === 'function') return t.isWellFormed() ? t : t.toWellFormed();
  return /[\ud800-\udfff]/.test(t) ? Array.from(t, (c) => (c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c)).join('') : t;
}

function normalize(text) {
  let t = stripBom(wellFormed(text));
  if (t.indexOf('\r') >= 0) t = t.replace(layout().lineEndRe, '');
  return t;
}

function stripBom(t) {
  let i = 0;
  while (t.charCodeAt(i) === 0xfeff) i++;
  return i === 0 ? t : t.slice(i);
}

/** Every complete edit block in `text`, in order. */
export function parseEdits(text, options) {
  checkText(text, 'parseEdits');
  const mask = formatMask(options, 'parseEdits');
  const t = normalize(text);
  const s = raw.parseEditSpansInput(writeInput(t, raw.parserInput), mask, knownFiles(options, 'parseEdits'));
  const { stride, span: S, isPatch, formats } = layout();
  const n = s.length / stride;
  const blocks = new Array(n);
  let ptext = null; // the patch blocks' texts and hunks, fetched once when there are any
  let hunks = null;
  for (let i = 0, k = 0; i < n; i++, k += stride) {
    if (isPatch[s[k + S.format]]) {
      if (ptext === null) {
        ptext = raw.takePatchText();
        hunks = raw.takePatchHunks();
      }
      blocks[i] = patchBlock(s, k, ptext, hunks, 0, t);
      continue;
    }
    const block = {
      format: formats[s[k + S.format]],
      filePath: t.slice(s[k + S.pathStart], s[k + S.pathEnd]),
      anchor: t.slice(s[k + S.anchorStart], s[k + S.anchorEnd]),
      oldLines: t.slice(s[k + S.oldStart], s[k + S.oldEnd]),
      newLines: t.slice(s[k + S.newStart], s[k + S.newEnd]),
      trailingAnchor: t.slice(s[k + S.trailingStart], s[k + S.trailingEnd]),
      rawBlock: t.slice(s[k + S.rawStart], s[k + S.rawEnd]),
      lineNumber: s[k + S.lineNumber],
    };
    const assumed = s[k + S.assumed];
    const hint = s[k + S.lineHint];
    blocks[i] = assumed === 0 && hint === 0 ? block : addAssumed(block, assumed, hint);
  }
  return blocks;
}

/** The format of the first block in `text`, or 'none'. */
export function detectFormat(text) {
  checkText(text, 'detectFormat');
  return raw.detectFormat(text);
}

/**
 * An incremental parser: feed chunks as they arrive. Any chunking gives the
 * blocks parseEdits gives for the whole text. finish() ends the reply and
 * releases the stream's wasm memory.
 *
 * The core tells this wrapper, in numbers, which lines and which ranges of
 * the reply make up each event; the wrapper keeps the text the core may
 * still point into (the current block, or the path line before it) and
 * slices it. So streaming stays linear and text crosses the boundary once.
 */
export class EditStream {
  // Plain fields, not private ones: bundled for ES2020, private fields
  // become WeakMap lookups on the hot path.
  constructor(options) {
    const mask = formatMask(options, 'EditStream');
    this._raw = new raw.RawEditStream(mask, knownFiles(options, 'EditStream'));
    this._held = ''; // trailing CRs or a high surrogate, until the next chunk shows what follows
    this._atStart = true; // nothing but byte-order marks read so far
    this._unsent = ''; // text after the last newline not yet handed to the core (not cleaned yet)
    this._finished = false;
    this._freed = false; // free() was called before finish()
    this._kept = ''; // the reply from UTF-16 offset _keptStart on (CRLF read as LF)
    this._keptStart = 0;
    this._partial = ''; // the current unterminated line, as far as the core has it
    this._path = ''; // the open block's path, from its block-start
    this._input = 0; // address and size of the stream's input buffer in wasm memory
    this._inputCapacity = 0;
    this._view = null;
    this._slots = this._raw.slots() >>> 2; // [keepFrom, records address, current line length, then text places], set by every feed
    // Live preview (options.preview) and pendingDelta(): see js/preview.js.
    this._preview = previewDriver(options?.preview);
    this._tracker = new PendingTracker();
  }

  // Every batch of events leaves through here: pendingDelta() tracks them,
  // and the preview adds block-located / block-unmatched.
  _out(events) {
    if (events.length > 0 && this._tracker.active) this._tracker.track(events);
    return this._preview === null ? events : this._preview.route(events);
  }

  /** Reads a chunk; returns the events it completes (possibly none). */
  feed(chunk) {
    this._checkNotFreed('feed');
    checkText(chunk, 'EditStream.feed');
    if (this._finished) throw new Error('editblocks: EditStream.feed() called after finish(); create a new EditStream for the next reply');
    let text = this._held === '' ? chunk : this._held + chunk;
    this._held = '';
    if (this._atStart) {
      // Byte-order marks opening the reply are not text (the core agrees).
      text = stripBom(text);
      if (text === '') return [];
      this._atStart = false;
    }
    let end = text.length;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // maybe half of a surrogate pair
    while (end > 0 && text.charCodeAt(end - 1) === 13) end--; // maybe the CRs of a line end
    if (end < text.length) {
      this._held = text.slice(end);
      text = text.slice(0, end);
    }
    // Events only come at line ends: text without a newline waits here
    // (pending() hands it over first), and the core is not called.
    if (text.indexOf('\n') < 0) {
      this._unsent += text;
      return this._preview === null ? [] : this._out([]);
    }
    if (this._unsent !== '') {
      text = this._unsent + text;
      this._unsent = '';
    }
    return this._out(this._run(text, false));
  }

  /** Ends the reply; a block still open is discarded, with its reason. */
  finish() {
    this._checkNotFreed('finish');
    if (this._finished) return [];
    // CRs at the very end are dropped (the core reads them as a line end too).
    const held = /^\r+$/.test(this._held) ? '' : this._held;
    this._held = '';
    const rest = this._unsent + held;
    this._unsent = '';
    // `rest` holds no newline: handing it over completes nothing.
    if (rest !== '') this._run(rest, false);
    const events = this._out(this._run('', true));
    if (this._preview !== null) this._preview.free();
    this._finished = true;
    this._raw.free();
    this._raw = null;
    this._kept = '';
    return events;
  }

  /** The block being written (path, format if known, sections so far), or null. */
  pending() {
    this._checkNotFreed('pending');
    if (this._finished) return null;
    if (this._unsent !== '') {
      // No newline in it, so no events: only the current line grows.
      this._run(this._unsent, false);
      this._unsent = '';
    }
    const json = this._raw.pending();
    return json === '' ? null : JSON.parse(json);
  }

  /**
   * Releases the stream's wasm memory without finishing the reply (a
   * cancelled request). Any later call but free() throws. finish() releases
   * it too; `using stream = new EditStream()` calls this at the end of the scope.
   */
  free() {
    if (this._preview !== null && !this._finished) this._preview.free();
    if (this._raw !== null) this._raw.free();
    this._raw = null;
    this._freed = !this._finished;
    this._kept = '';
    this._unsent = '';
    this._held = '';
    this._partial = '';
  }

  _checkNotFreed(method) {
    if (this._freed) throw new Error(`editblocks: EditStream.${method}() called after free(); the stream's memory was released, create a new EditStream`);
  }

  /**
   * What changed in the open block since the last call: `{ filePath, format,
   * lineNumber, reset, added: [{ section, lines }], partialLine }` (`reset`:
   * a new block began, start over), or null between blocks. Its cost is the
   * new text, not the block: pending() gives the whole block.
   */
  pendingDelta() {
    this._checkNotFreed('pendingDelta');
    if (this._finished) return null;
    if (!this._tracker.active) {
      // The first call starts the tracking (a stream nobody asks for deltas
      // keeps no copy of its lines): the open block so far is its reset.
      const open = this.pending();
      this._tracker.start(open);
      if (open === null) return null;
    }
    return this._tracker.take(this._typing());
  }

  /**
   * With options.preview: where the open block (or the last one) stands in its
   * file: `{ filePath, lineNumber, state, … }` with state 'waiting',
   * 'searching' (count, lines), 'located' (line), 'ambiguous' (lines,
   * reason), 'no-match' (since, errorKind, reason) or 'create'; null without.
   */
  preview() {
    return this._preview === null ? null : this._preview.state();
  }

  /** With options.preview: the open block's file as it would look with the new lines so far, or null. */
  previewContent() {
    return this._preview === null || this._finished ? null : this._preview.content();
  }

  // The line being typed (not handed to the core yet, or its current line).
  _typing() {
    return this._unsent === '' ? this._partial : this._partial + wellFormed(this._unsent);
  }

  _previewHtml(incremental, theme) {
    if (this._finished) return null;
    // Without options.preview, the first incremental render starts drawing (not locating).
    if (this._preview === null) this._preview = drawingDriver(this);
    return this._preview.render(this._typing(), incremental, theme);
  }

  // Hands `text` (no trailing CR or high surrogate) to the core, or ends the
  // reply when `finishing`; returns the events.
  _run(text, finishing) {
    const stream = this._raw;
    let ret;
    if (finishing) ret = stream.finishInput();
    else {
      // The stream's input buffer keeps its address while it is big enough.
      const capacity = text.length * 3;
      if (capacity > this._inputCapacity) {
        this._inputCapacity = Math.max(capacity, 4096);
        this._input = stream.input(this._inputCapacity);
        this._view = null;
      }
      // A view over the input buffer, remade when the buffer moves or
      // memory grows (no typed-array view per feed).
      let view = this._view;
      if (view === null || view.byteLength === 0) view = this._view = new Uint8Array(buffer(), this._input, this._inputCapacity);
      text = clean(text);
      ret = stream.feedInput(encoder.encodeInto(text, view).written);
    }
    const before = this._partial;
    const textAt = this._keptStart + this._kept.length; // UTF-16 offset of `text` in the reply
    this._kept += text;
    if (finishing) this._partial = '';
    else {
      // The core's current line, in UTF-16 units (cheaper than lastIndexOf).
      const rest = u32()[this._slots + 2];
      this._partial = rest >= text.length ? before + text : text.slice(text.length - rest);
    }
    if (ret === 0) {
      this._trim(u32()[this._slots], text, textAt);
      return [];
    }
    // Everything is read in place (the slots say where): nothing here
    // calls into wasm, so memory cannot move while it is read.
    const rec = u32();
    const slots = this._slots;
    const json = ret & 1 ? JSON.parse(utf8At(rec[slots + 3], rec[slots + 4])) : null;
    const patchText = ret & 2 ? utf8At(rec[slots + 5], rec[slots + 6]) : null;
    const hunksAt = rec[slots + 7] >>> 2;
    const n = ret >>> 2;
    const { record: R, span: S, update: U, start: B, json: J, head: H, stride, formats, sections } = layout();
    const base = rec[slots + 1] >>> 2;
    const keepFrom = rec[slots];
    const events = [];
    // Lines completed by this feed, numbered from 0, read on demand in order.
    let lineIndex = -1;
    let lineEnd = -1;
    const line = (want) => {
      let out = '';
      while (lineIndex < want) {
        const start = lineEnd + 1;
        lineEnd = text.indexOf('\n', start);
        if (lineEnd < 0) lineEnd = text.length;
        lineIndex++;
        if (lineIndex === want) out = lineIndex === 0 ? before + text.slice(0, lineEnd) : text.slice(start, lineEnd);
      }
      return out;
    };
    for (let i = base, end = base + n; i < end; ) {
      const kind = rec[i];
      if (kind === R.update) {
        const format = rec[i + U.format];
        const event = { type: 'block-update' };
        if (format !== 0) event.format = formats[format - 1];
        event.section = sections[rec[i + U.section]];
        const first = rec[i + U.firstLine];
        const lines = new Array(rec[i + U.lineCount]);
        for (let j = 0; j < lines.length; j++) lines[j] = line(first + j);
        event.lines = lines;
        events.push(event);
        i += U.size;
      } else if (kind === R.complete) {
        const k = this._keptStart;
        const t = this._kept;
        const r = i + H.size;
        const block = {
          format: formats[rec[r + S.format] - 1],
          filePath: this._path,
          anchor: t.slice(rec[r + S.anchorStart] - k, rec[r + S.anchorEnd] - k),
          oldLines: t.slice(rec[r + S.oldStart] - k, rec[r + S.oldEnd] - k),
          newLines: t.slice(rec[r + S.newStart] - k, rec[r + S.newEnd] - k),
          trailingAnchor: t.slice(rec[r + S.trailingStart] - k, rec[r + S.trailingEnd] - k),
          rawBlock: t.slice(rec[r + S.rawStart] - k, rec[r + S.rawEnd] - k),
          lineNumber: rec[r + S.lineNumber],
        };
        if (rec[r + S.assumed] !== 0 || rec[r + S.lineHint] !== 0) addAssumed(block, rec[r + S.assumed], rec[r + S.lineHint]);
        events.push({ type: 'block-complete', index: rec[i + H.index], block });
        i += H.size + stride;
      } else if (kind === R.patch) {
        events.push({ type: 'block-complete', index: rec[i + H.index], block: patchBlock(rec, i + H.size, patchText, rec, hunksAt, null) });
        i += H.size + stride;
      } else if (kind === R.json) {
        events.push(json[rec[i + J.event]]);
        i += J.size;
      } else if (kind === R.start) {
        const format = rec[i + B.format];
        let path = this._path;
        if (rec[i + B.pathStart] !== L.none) {
          path = this._kept.slice(rec[i + B.pathStart] - this._keptStart, rec[i + B.pathEnd] - this._keptStart);
          // A patch operation's path is never carried over to a later block.
          if (format === 0 || !L.isPatch[format - 1]) this._path = path;
        }
        const event = { type: 'block-start', filePath: path };
        if (format !== 0) event.format = formats[format - 1];
        event.lineNumber = rec[i + B.lineNumber];
        events.push(event);
        i += B.size;
      } else {
        throw new Error(`editblocks: internal error: unknown parser record ${kind}`);
      }
    }
    this._trim(keepFrom, text, textAt);
    return events;
  }

  // Drops the text the core can no longer point into. `text`, the end of
  // what is kept, starts at `textAt`: when all that is kept lies in it, it
  // is sliced from there (slicing the kept text would flatten it first).
  _trim(keepFrom, text, textAt) {
    if (keepFrom >= textAt) {
      this._kept = keepFrom === textAt ? text : text.slice(keepFrom - textAt);
      this._keptStart = keepFrom;
    } else if (keepFrom > this._keptStart) {
      this._kept = this._kept.slice(keepFrom - this._keptStart);
      this._keptStart = keepFrom;
    }
  }
}

// `using stream = new EditStream()` (explicit resource management) frees it at scope end.
if (typeof Symbol.dispose === 'symbol') EditStream.prototype[Symbol.dispose] = EditStream.prototype.free;

// What the core reads from a chunk: lone surrogates as U+FFFD, the CRs
// before a line end dropped (see `normalize`; a chunk handed over never ends
// in a CR, those are held back until the next chunk).
function clean(text) {
  const t = wellFormed(text);
  return t.indexOf('\r') >= 0 ? t.replace(layout().lineEndRe, '') : t;
}
