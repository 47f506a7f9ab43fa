// The streaming parser for the text formats: parseEdits, detectFormat,
// EditStream. The core runs in wasm; this layer checks arguments, keeps a
// split surrogate pair together across chunks, and turns what crosses the
// boundary into plain objects.
import * as raw from 'editblocks-raw';

const FORMATS = ['edit-repl', 'anchored', 'search-replace'];
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let memory = null;
const buffer = () => (memory ??= raw.parserMemory()).buffer;

// Writes `text` as UTF-8 at the address `reserve(capacity)` returns (lone
// surrogates become U+FFFD); returns the byte length.
function writeInput(text, reserve) {
  const capacity = text.length * 3;
  const ptr = reserve(capacity);
  return encoder.encodeInto(text, new Uint8Array(buffer(), ptr, capacity)).written;
}
const STRIDE = 14;

function formatMask(options, where) {
  if (options === undefined || options === null) return 0;
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
// crossing) and CRLF is read as LF, so offsets from the core index this string.
function normalize(text) {
  let t = text;
  if (typeof t.isWellFormed === 'function' ? !t.isWellFormed() : /[\ud800-\udfff]/.test(t)) {
    t = typeof t.toWellFormed === 'function' ? t.toWellFormed() : Array.from(t, (c) => (c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c)).join('');
  }
  if (t.indexOf('\r') >= 0) {
    t = t.replace(/\r\n/g, '\n');
    if (t.endsWith('\r')) t = t.slice(0, -1);
  }
  return t;
}

/** Every complete edit block in `text`, in order. */
export function parseEdits(text, options) {
  checkText(text, 'parseEdits');
  const mask = formatMask(options, 'parseEdits');
  const t = normalize(text);
  const s = raw.parseEditSpansInput(writeInput(t, raw.parserInput), mask);
  const n = s.length / STRIDE;
  const blocks = new Array(n);
  for (let i = 0, k = 0; i < n; i++, k += STRIDE) {
    blocks[i] = {
      format: FORMATS[s[k]],
      filePath: t.slice(s[k + 2], s[k + 3]),
      anchor: t.slice(s[k + 4], s[k + 5]),
      oldLines: t.slice(s[k + 6], s[k + 7]),
      newLines: t.slice(s[k + 8], s[k + 9]),
      trailingAnchor: t.slice(s[k + 10], s[k + 11]),
      rawBlock: t.slice(s[k + 12], s[k + 13]),
      lineNumber: s[k + 1],
    };
  }
  return blocks;
}

/** The format of the first block in `text`, or 'none'. */
export function detectFormat(text) {
  checkText(text, 'detectFormat');
  return raw.detectFormat(text);
}

const EMPTY = () => [];

/**
 * An incremental parser: feed chunks as they arrive. Any chunking gives the
 * blocks parseEdits gives for the whole text. finish() ends the reply and
 * releases the stream's wasm memory.
 */
export class EditStream {
  #raw;
  #held = '';
  #finished = false;

  constructor(options) {
    this.#raw = new raw.RawEditStream(formatMask(options, 'EditStream'));
  }

  /** Reads a chunk; returns the events it completes (possibly none). */
  feed(chunk) {
    checkText(chunk, 'EditStream.feed');
    if (this.#finished) throw new Error('editblocks: EditStream.feed() called after finish(); create a new EditStream for the next reply');
    let text = this.#held === '' ? chunk : this.#held + chunk;
    this.#held = '';
    const last = text.charCodeAt(text.length - 1);
    // A high surrogate may be the first half of a pair split across chunks.
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#held = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text === '') return EMPTY();
    return this.#feedText(text);
  }

  #feedText(text) {
    const stream = this.#raw;
    const n = stream.feedInput(writeInput(text, (capacity) => stream.input(capacity)));
    if (n === 0) return EMPTY();
    return JSON.parse(decoder.decode(new Uint8Array(buffer(), stream.output(), n)));
  }

  /** Ends the reply; a block still open is discarded, with its reason. */
  finish() {
    if (this.#finished) return [];
    const events = [];
    if (this.#held !== '') {
      events.push(...this.#feedText(this.#held));
      this.#held = '';
    }
    const json = this.#raw.finish();
    if (json !== '') events.push(...JSON.parse(json));
    this.#finished = true;
    this.#raw.free();
    this.#raw = null;
    return events;
  }

  /** The block being written (path, format if known, sections so far), or null. */
  pending() {
    if (this.#finished) return null;
    const json = this.#raw.pending();
    return json === '' ? null : JSON.parse(json);
  }
}
