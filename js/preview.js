// Live preview of the block being streamed: where it lands in its file
// (located / searching / ambiguous / no-match), the events block-located and
// block-unmatched as they become true, the file as it would look, and
// incremental HTML. The locating runs in the core (src/preview/); this layer
// reads the files the core's session asks for, routes the parser's events
// to it, and tracks what pendingDelta() reports.
import * as raw from 'editblocks-raw';
import { errorEntry } from './read-error.js';
import { checkOptions } from './options.js';
import { parserLayout } from './layout.js';

// Section numbers by name (the core's `Section` enum), from the core's layout (js/layout.js).
let tables = null;
function formatTables() {
  if (tables) return tables;
  tables = { sectionCode: new Map(parserLayout().sections.map((s, i) => [s, i])) };
  return tables;
}
let utf8 = null;

// `editblocks/lite` binds no preview (it would link the apply engine in).
function needPreview(what) {
  if (raw.RawBlockPreview === undefined) {
    throw new TypeError(`editblocks/lite has no live preview (${what}); import from 'editblocks' for it`);
  }
}

/**
 * Checks `options.preview` of an EditStream: `{ files }` (an object or Map
 * from path to content) or `{ host }` (anything with readFile, sync or async).
 */
export function previewDriver(spec) {
  if (spec === undefined || spec === null || spec === false) return null;
  if (typeof spec !== 'object') throw new TypeError('editblocks: EditStream options.preview must be an object: { files } (path → content) or { host } (a FileHost)');
  const { files, host } = spec;
  if (files === undefined && host === undefined) throw new TypeError('editblocks: EditStream options.preview needs files (an object or Map from path to content) or host (with readFile)');
  if (files !== undefined && (files === null || typeof files !== 'object')) throw new TypeError('editblocks: EditStream options.preview.files must be an object or a Map from path to content');
  if (host !== undefined && (host === null || typeof host.readFile !== 'function')) throw new TypeError('editblocks: EditStream options.preview.host must have a readFile(path) method');
  needPreview('EditStream options.preview');
  return new PreviewDriver(files, host);
}

// A file's content as the core takes it: a string, or undefined for no such file.
function asText(value) {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) {
    try {
      return (utf8 ??= new TextDecoder('utf-8', { fatal: true })).decode(value);
    } catch {
      return '\0'; // not UTF-8: refused like a binary file
    }
  }
  return undefined;
}

/**
 * For `renderInProgressEditBlock(stream, { incremental: true })` on a stream
 * made without options.preview: the block is drawn (not located) from the
 * lines so far, once, and then only from what each feed adds.
 */
export function drawingDriver(stream) {
  needPreview('renderInProgressEditBlock(stream, { incremental: true })');
  const d = new PreviewDriver(null, null, false);
  const p = stream.pending();
  if (p !== null) {
    d.onEvent({ type: 'block-start', filePath: p.filePath, format: p.format, lineNumber: p.lineNumber });
    for (const s of p.sections) d.onEvent({ type: 'block-update', section: s.section, lines: s.lines });
  }
  return d;
}

/**
 * Feeds the parser's events to the core's preview session and reads the
 * files it asks for: from `files`, else through `host` (awaiting an async
 * host; what a late file makes true comes out with the next events).
 */
class PreviewDriver {
  constructor(files, host, locate = true) {
    this.session = new raw.RawPreviewSession(locate);
    this.files = files instanceof Map ? files : files ? new Map(Object.entries(files)) : new Map();
    this.host = host;
    this.cached = null; // state() until the next line arrives
    // block-complete events of patch operations whose file was still being
    // read, by the number the session gives their final state under.
    this.completions = new Map();
    this.reading = 0; // async reads under way
    this.closed = false; // the reply ended: the session is released once no read is under way
    this.mayQueue = false;
  }

  // Routes the parser's events; returns them with the preview events inserted.
  route(events) {
    if (events.length > 0) this.cached = null;
    let out = null;
    // Events are queued only while a block starts or a file is handed over.
    if (this.mayQueue) {
      out = this.session.queued() ?? null;
      this.mayQueue = false;
    }
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const made = this.onEvent(e);
      if (made !== null || out !== null) {
        if (out === null) out = events.slice(0, i);
        out.push(e);
        if (made !== null) for (const m of made) out.push(m);
      }
    }
    return out === null ? events : out;
  }

  onEvent(e) {
    const s = this.session;
    let n;
    switch (e.type) {
      case 'block-start':
        s.start(e.filePath, e.format ?? '', e.lineNumber);
        this.mayQueue = true;
        this.serve();
        n = s.opened();
        break;
      case 'block-update':
        n = s.update(formatTables().sectionCode.get(e.section) ?? -1, e.lines.join('\n'), e.lines.length);
        break;
      case 'block-complete':
      case 'block-discarded': {
        n = e.type === 'block-complete' ? s.complete(e.block) : s.discard();
        const state = s.finalState();
        if (state !== undefined) e.preview = state;
        const later = s.deferred();
        if (later !== 0) this.completions.set(later, e);
        break;
      }
      default:
        return null;
    }
    return n > 0 ? s.made() : null;
  }

  // Reads every file the session wants: at once when the host answers at once.
  serve() {
    for (let w = this.session.wanted(); w !== undefined; w = this.session.wanted()) {
      const [ticket, path, filePath] = w;
      let content;
      if (this.files.has(path)) content = this.files.get(path);
      else if (this.files.has(filePath)) content = this.files.get(filePath);
      else if (this.host) {
        try {
          content = this.host.readFile(path);
        } catch {
          content = undefined;
        }
      }
      if (content !== null && typeof content === 'object' && typeof content.then === 'function') {
        this.reading++;
        content.then(
          (value) => this.provideLate(ticket, asText(value)),
          () => this.provideLate(ticket, undefined),
        );
      } else this.session.provide(ticket, asText(content), false);
    }
  }

  provideLate(ticket, content) {
    this.reading--;
    if (this.session === null) return;
    this.cached = null;
    this.session.provide(ticket, content, true);
    this.mayQueue = true;
    for (const [number, state] of this.session.lateStates()) {
      const e = this.completions.get(number);
      this.completions.delete(number);
      if (e !== undefined) e.preview = state;
    }
    this.serve();
    if (this.closed && this.reading === 0) this.release();
  }

  state() {
    if (this.cached === null) this.cached = this.session === null ? undefined : this.session.state() ?? undefined;
    return this.cached === undefined ? null : { ...this.cached };
  }

  content() {
    return this.session === null ? null : this.session.content() ?? null;
  }

  render(partial, incremental, theme) {
    if (this.session === null) return null;
    if (!incremental) return this.session.renderFull(partial, theme) ?? null;
    const json = this.session.renderDelta(partial, theme);
    return json === undefined ? null : json === '{}' ? {} : JSON.parse(json);
  }

  free() {
    if (this.closed) return;
    this.closed = true;
    this.session.close();
    if (this.reading === 0) this.release();
  }

  // Frees the wasm memory, keeping the last block's state for state().
  release() {
    this.cached = this.session.state() ?? undefined;
    this.session.free();
    this.session = null;
  }
}

/**
 * What `EditStream.pendingDelta()` reports: the lines added to the open block
 * since the last call, so a UI's work per token does not grow with the block.
 */
export class PendingTracker {
  constructor() {
    this.open = null; // { filePath, format, lineNumber }
    this.added = [];
    this.fresh = false; // a block started since the last call
    this.active = false; // tracking starts at the first pendingDelta()
  }

  /** Starts tracking with the open block so far (`pending()`, or null between blocks). */
  start(pending) {
    this.active = true;
    if (pending === null) return;
    this.open = { filePath: pending.filePath, format: pending.format, lineNumber: pending.lineNumber };
    this.added = pending.sections;
    this.fresh = true;
  }

  track(events) {
    for (const e of events) {
      switch (e.type) {
        case 'block-start':
          this.open = { filePath: e.filePath, format: e.format, lineNumber: e.lineNumber };
          this.added = [];
          this.fresh = true;
          break;
        case 'block-update':
          if (this.open === null) break;
          if (e.format !== undefined) this.open.format = e.format;
          {
            const last = this.added[this.added.length - 1];
            if (last !== undefined && last.section === e.section) for (const l of e.lines) last.lines.push(l);
            else this.added.push({ section: e.section, lines: e.lines.slice() });
          }
          break;
        case 'block-complete':
        case 'block-discarded':
          this.open = null;
          this.added = [];
          break;
        default:
          break;
      }
    }
  }

  take(partialLine) {
    if (this.open === null) return null;
    const o = this.open;
    const out = { filePath: o.filePath, lineNumber: o.lineNumber, reset: this.fresh, added: this.added, partialLine };
    if (o.format !== undefined) out.format = o.format;
    this.added = [];
    this.fresh = false;
    return out;
  }
}

/**
 * Applies what `renderInProgressEditBlock(stream, { incremental: true })`
 * returned to `container`, the element that holds the preview (browsers).
 */
export function applyPreviewDelta(container, delta) {
  if (container === null || typeof container !== 'object' || typeof container.querySelector !== 'function') {
    throw new TypeError('editblocks: applyPreviewDelta(container, delta) needs a DOM element as container');
  }
  // null: no block is open (the last one finished or was discarded), so nothing is drawn.
  if (delta === null) {
    container.innerHTML = '';
    return;
  }
  if (delta === undefined) return;
  if (typeof delta !== 'object') throw new TypeError('editblocks: applyPreviewDelta(…, delta) takes what renderInProgressEditBlock(stream, { incremental: true }) returned');
  if (delta.reset !== undefined) {
    container.innerHTML = delta.reset;
    return;
  }
  if (delta.header !== undefined) {
    const h = container.querySelector('.eb-preview-header');
    if (h) h.outerHTML = delta.header;
  }
  if (delta.replace !== undefined) {
    for (const [row, html] of delta.replace) {
      const el = container.querySelector(`[data-row="${row}"]`);
      if (el) el.outerHTML = html;
    }
  }
  if (delta.append !== undefined) container.querySelector('.eb-preview-rows')?.insertAdjacentHTML('beforeend', delta.append);
  if (delta.partial !== undefined) {
    const p = container.querySelector('.eb-preview-partial');
    if (p) p.innerHTML = delta.partial;
  }
  if (delta.below !== undefined) {
    const b = container.querySelector('.eb-preview-below');
    if (b) b.innerHTML = delta.below;
  }
}

const lineList = (lines, where) => {
  if (typeof lines === 'string') return lines === '' ? [] : lines.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (Array.isArray(lines) && lines.every((l) => typeof l === 'string')) return lines;
  throw new TypeError(`editblocks: EditPreview.${where} takes complete lines: an array of strings, or one string split at '\\n'`);
};

/**
 * The preview of one edit fed by hand, for edits that do not come through
 * EditStream (e.g. the old_string / new_string of an edit_file or
 * str_replace call as its arguments stream): give complete lines of the old
 * text, then of the new text. Old text is matched as whole lines, exactly.
 */
export class EditPreview {
  constructor(filePath, content) {
    if (typeof filePath !== 'string') throw new TypeError('editblocks: new EditPreview(filePath, content) needs the file path as a string');
    const checked = raw.previewPath(filePath);
    if (typeof checked !== 'string') this._raw = raw.RawBlockPreview.refused(filePath, checked.reason);
    else this._raw = new raw.RawBlockPreview(filePath, asText(content));
    this._filePath = filePath;
    this._events = [];
  }

  _live(where) {
    if (this._raw === null) throw new Error(`editblocks: EditPreview.${where}() called after free()`);
    return this._raw;
  }

  _collect(n) {
    if (n > 0) for (const e of this._raw.events()) this._events.push(e);
  }

  /** Complete lines of the old text; returns the events they made true. */
  pushOld(lines) {
    const list = lineList(lines, 'pushOld');
    this._collect(this._live('pushOld').push(formatTables().sectionCode.get('search'), list.join('\n'), list.length));
    return this.takeEvents();
  }

  /** Complete lines of the new text (the old text is complete from the first call on). */
  pushNew(lines) {
    const list = lineList(lines, 'pushNew');
    this._collect(this._live('pushNew').push(formatTables().sectionCode.get('replace'), list.join('\n'), list.length));
    return this.takeEvents();
  }

  /** Events (block-located, block-unmatched) not returned yet. */
  takeEvents() {
    return this._events.splice(0);
  }

  /** `{ state, … }` as EditStream.preview() reports it. */
  state() {
    return { path: this._filePath, filePath: this._filePath, ...this._live('state').state() };
  }

  /** The file with the new lines so far, or null while not located. */
  content() {
    return this._live('content').contentAfter() ?? null;
  }

  /** HTML of the preview; with `{ incremental: true }` what changed since the last call (see applyPreviewDelta). */
  render(partialLine, options) {
    if (partialLine !== undefined && partialLine !== null && typeof partialLine !== 'string') throw new TypeError('editblocks: EditPreview.render(partialLine) takes the line being typed as a string');
    const checked = checkOptions(options, 'EditPreview.render', { incremental: 'boolean', theme: 'enum:theme' });
    const incremental = checked?.incremental === true;
    const r = this._live('render');
    if (!incremental) return r.renderFull(partialLine ?? undefined, checked?.theme);
    const json = r.renderDelta(partialLine ?? undefined, checked?.theme);
    return json === '{}' ? {} : JSON.parse(json);
  }

  /** Releases the wasm memory. */
  free() {
    if (this._raw !== null) this._raw.free();
    this._raw = null;
  }
}

/**
 * The live preview of a tool call whose arguments stream (edit_file,
 * str_replace_based_edit_tool's str_replace, Gemini's replace): feed the
 * argument JSON as the API delivers it (OpenAI `function_call_arguments.delta`,
 * Anthropic `input_json_delta`'s `partial_json`). The JSON is read
 * incrementally in the core (never parsed again from the start); the old
 * text is located in the file as its lines arrive. Any chunking gives the
 * same events, final state and content.
 *
 *   const p = new ToolCallPreview({ name: 'edit_file', files: { 'a.py': text } });
 *   for await (const delta of deltas) for (const e of p.feed(delta)) … // block-located / block-unmatched
 *   p.preview();        // { state, path, edit?, … } as EditStream.preview()
 *   p.previewContent(); // the file with the new text so far, or null
 *   p.finish();         // the call's arguments ended
 */
export class ToolCallPreview {
  constructor(options) {
    if (options === null || typeof options !== 'object') throw new TypeError("editblocks: new ToolCallPreview({ name, files | host }) takes an options object");
    const { name, files, host } = options;
    if (typeof name !== 'string' || name === '') throw new TypeError("editblocks: new ToolCallPreview({ name }) needs the tool's name as a string (e.g. 'edit_file')");
    if (files === undefined && host === undefined) throw new TypeError('editblocks: new ToolCallPreview needs files (an object or Map from path to content) or host (with readFile)');
    if (files !== undefined && (files === null || typeof files !== 'object')) throw new TypeError('editblocks: ToolCallPreview options.files must be an object or a Map from path to content');
    if (host !== undefined && (host === null || typeof host.readFile !== 'function')) throw new TypeError('editblocks: ToolCallPreview options.host must have a readFile(path) method');
    this._files = files instanceof Map ? files : files ? new Map(Object.entries(files)) : new Map();
    this._host = host ?? null;
    this._raw = new raw.RawToolCallPreview(name);
    this._held = ''; // a high surrogate closing the last chunk, until the next one
    this._asked = null; // the path an async read is under way for
    this._queued = [];
    this._finished = false;
  }

  _live(where) {
    if (this._raw === null) throw new Error(`editblocks: ToolCallPreview.${where}() called after free()`);
    return this._raw;
  }

  // Gives the core the files it asks for (sync reads at once, async ones later).
  _supply() {
    const r = this._raw;
    let last;
    for (;;) {
      const wanted = r.wantedFile();
      if (wanted === undefined || wanted === this._asked || wanted === last) return;
      last = wanted;
      let content;
      // A read the host refused is given as the applier reads it (the host
      // driver's error entry): a path leading out of the root stays a
      // path-escape, never "no such file".
      let refused = null;
      if (this._files.has(wanted)) content = this._files.get(wanted);
      else if (this._host !== null) {
        try {
          content = this._host.readFile(wanted);
        } catch (e) {
          refused = errorEntry(e);
        }
      }
      const give = (rawPreview, value, refusal) =>
        refusal === null ? rawPreview.provideFile(wanted, asText(value)) : rawPreview.provideRefused(wanted, refusal.error, refusal.kind === 'path-escape');
      if (content !== null && typeof content === 'object' && typeof content.then === 'function') {
        this._asked = wanted;
        const done = (value, refusal) => {
          if (this._raw === null) return;
          this._asked = null;
          this._collect(give(this._raw, value, refusal));
          this._supply();
        };
        content.then((value) => done(value, null), (e) => done(undefined, errorEntry(e)));
        return;
      }
      this._collect(give(r, content, refused));
    }
  }

  _collect(n) {
    if (n > 0) for (const e of this._raw.events()) this._queued.push(e);
  }

  /** A chunk of the arguments' JSON; returns the events it made true. */
  feed(chunk) {
    const r = this._live('feed');
    if (typeof chunk !== 'string') throw new TypeError('editblocks: ToolCallPreview.feed(chunk) takes the next piece of the arguments as a string');
    let text = this._held + chunk;
    this._held = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      // Half of a surrogate pair: its other half comes with the next chunk.
      this._held = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text !== '') this._collect(r.feed(text));
    this._supply();
    return this._queued.splice(0);
  }

  /** The arguments ended; returns the events that made true. */
  finish() {
    const r = this._live('finish');
    if (!this._finished) {
      if (this._held !== '') this._collect(r.feed(this._held));
      this._held = '';
      this._supply();
      this._collect(r.finish());
      this._finished = true;
    }
    return this._queued.splice(0);
  }

  /** Where the edit being written (or the last one) stands: `{ state, path?, edit?, … }` (`filePath`: deprecated alias of `path`). */
  preview() {
    return this._live('preview').state();
  }

  /** The file as it would look with the new text so far, or null while not located. */
  previewContent() {
    return this._live('previewContent').contentAfter() ?? null;
  }

  /** Releases the wasm memory. */
  free() {
    if (this._raw !== null) this._raw.free();
    this._raw = null;
  }
}
