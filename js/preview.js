// Live preview of the block being streamed: where it lands in its file
// (located / searching / ambiguous / no-match), the events block-located and
// block-unmatched as they become true, the file as it would look, and
// incremental HTML. The locating runs in the core (src/preview/); this layer
// reads the files, routes the parser's events to it, and tracks what
// pendingDelta() reports.
import * as raw from 'editblocks-raw';
import { errorEntry } from './read-error.js';
import { checkOptions } from './options.js';
import { parserLayout } from './layout.js';

// Section numbers by name (the core's `Section` enum), and which formats are
// patches, previewed section by section (RawPatchPreview); the others are
// located as one block. Both from the core's layout (js/layout.js).
let tables = null;
function formatTables() {
  if (tables) return tables;
  const l = parserLayout();
  tables = {
    sectionCode: new Map(l.sections.map((s, i) => [s, i])),
    patches: new Set(l.formats.filter((_, i) => l.isPatch[i])),
    located: new Set(l.formats.filter((_, i) => !l.isPatch[i])),
  };
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

class PreviewDriver {
  constructor(files, host, locate = true) {
    this.locate = locate; // false: draw only (no file to locate the block in)
    this.files = files instanceof Map ? files : files ? new Map(Object.entries(files)) : new Map();
    this.host = host;
    // Content as the earlier blocks of this reply left it (sequential apply).
    this.changed = new Map();
    this.block = null; // { raw, path, lineNumber, buffered, waiting }
    this.last = null; // the last block's preview, kept after it ends
    this.queued = []; // events made true by an async read, returned by the next feed
    this.cached = null; // state() until the next line arrives
    // Patch operations started and not complete, oldest first: an apply-patch
    // envelope completes all of its operations at `*** End Patch`.
    this.patches = [];
    this.patchWait = null; // the last async read of a patch operation's file, while under way
  }

  // Routes the parser's events; returns them with the preview events inserted.
  route(events) {
    if (events.length > 0) this.cached = null;
    let out = null;
    const queued = this.queued;
    if (queued.length > 0) {
      out = queued.splice(0);
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
    switch (e.type) {
      case 'block-start':
        this.open(e);
        return this.drain();
      case 'block-update': {
        const b = this.block;
        if (b === null || b.unsupported) return null;
        if (b.patch) {
          if (e.section !== 'patch') return null;
          if (b.raw === null) {
            b.buffered.push(e.lines);
            return null;
          }
          return b.raw.push(e.lines.join('\n'), e.lines.length) > 0 ? this.drain() : null;
        }
        const code = formatTables().sectionCode.get(e.section);
        if (code === undefined) {
          // A section this preview does not know: stop previewing the block rather than misread it.
          this.unsupported(b);
          return null;
        }
        if (b.raw === null) {
          b.buffered.push([code, e.lines]);
          return null;
        }
        return b.raw.push(code, e.lines.join('\n'), e.lines.length) > 0 ? this.drain() : null;
      }
      case 'block-complete': {
        if (this.patches.length > 0 && formatTables().patches.has(e.block?.format)) return this.completePatch(e);
        const b = this.block;
        if (b === null) return null;
        if (b.unsupported) {
          this.block = null;
          this.last = null;
          return null;
        }
        if (b.raw === null) {
          b.completed = e.block;
          this.end();
          return null;
        }
        const n = b.raw.complete(e.block);
        const out = n > 0 ? this.drain() : null;
        const state = b.raw.state();
        // The block's final state (what validateEdit says of it), with the event.
        if (this.locate) e.preview = state;
        if (state.state === 'located' || state.state === 'create') {
          const after = b.raw.contentAfter();
          if (after !== undefined && b.path !== null) this.changed.set(b.path, after);
        }
        this.end();
        return out;
      }
      case 'block-discarded':
        if (this.patches.length > 0) {
          const p = this.patches.shift();
          if (p.raw !== null && this.locate) e.preview = p.raw.state();
          this.retire(p);
          return null;
        }
        if (this.block !== null && this.block.unsupported) {
          this.block = null;
          this.last = null;
        } else if (this.block !== null) {
          if (this.block.raw !== null && this.locate) e.preview = this.block.raw.state();
          this.end();
        }
        return null;
      default:
        return null;
    }
  }

  open(e) {
    this.end();
    const b = { raw: null, path: null, filePath: e.filePath, lineNumber: e.lineNumber, buffered: [], completed: null, unsupported: false };
    this.block = b;
    if (this.locate && formatTables().patches.has(e.format)) {
      this.openPatch(b, e);
      return;
    }
    if (e.format !== undefined && !formatTables().located.has(e.format)) {
      this.unsupported(b);
      return;
    }
    if (!this.locate) {
      b.raw = raw.RawBlockPreview.unlocated(e.filePath);
      return;
    }
    const checked = raw.previewPath(e.filePath);
    if (typeof checked !== 'string') {
      b.raw = raw.RawBlockPreview.refused(e.filePath, checked.reason);
      return;
    }
    b.path = checked;
    if (this.changed.has(checked)) {
      b.raw = new raw.RawBlockPreview(e.filePath, this.changed.get(checked));
      return;
    }
    let content;
    if (this.files.has(checked)) content = this.files.get(checked);
    else if (this.files.has(e.filePath)) content = this.files.get(e.filePath);
    else if (this.host) {
      try {
        content = this.host.readFile(checked);
      } catch {
        content = undefined;
      }
    }
    if (content !== null && typeof content === 'object' && typeof content.then === 'function') {
      // An async host: lines wait here until the file is read.
      content.then(
        (value) => this.ready(b, asText(value)),
        () => this.ready(b, undefined),
      );
      return;
    }
    b.raw = new raw.RawBlockPreview(e.filePath, asText(content));
  }

  // The content of a file as this reply left it so far, or a promise of it.
  read(checked, filePath) {
    if (this.changed.has(checked)) return this.changed.get(checked);
    if (this.files.has(checked)) return this.files.get(checked);
    if (this.files.has(filePath)) return this.files.get(filePath);
    if (this.host) {
      try {
        return this.host.readFile(checked);
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  // A patch operation: previewed section by section against its file.
  openPatch(b, e) {
    b.patch = true;
    b.format = e.format;
    this.patches.push(b);
    const checked = raw.previewPath(e.filePath);
    if (typeof checked !== 'string') {
      b.raw = raw.RawPatchPreview.refused(e.filePath, e.format, checked.reason);
      return;
    }
    b.path = checked;
    // Files are read in the order the operations start: while an earlier
    // operation's file is still being read (an async host), this one waits,
    // so it sees what the earlier ones did to the same file.
    const run = () => this.loadPatch(b, e);
    const wait = this.patchWait !== null ? this.patchWait.then(run) : run();
    if (wait) {
      this.patchWait = wait;
      wait.then(() => {
        if (this.patchWait === wait) this.patchWait = null;
      });
    }
  }

  // Reads an operation's file; a promise when the host is async.
  loadPatch(b, e) {
    if (b.retired) return null;
    // An earlier operation of the same patch on this file, as streamed so far.
    for (let i = this.patches.indexOf(b) - 1; i >= 0; i--) {
      const q = this.patches[i];
      if (q.path === b.path && q.raw !== null) {
        const after = q.raw.contentAfter();
        if (after !== undefined) {
          this.readyPatch(b, after);
          return null;
        }
        break;
      }
    }
    const content = this.read(b.path, e.filePath);
    if (content !== null && typeof content === 'object' && typeof content.then === 'function') {
      return content.then(
        (value) => this.readyPatch(b, asText(value)),
        () => this.readyPatch(b, undefined),
      );
    }
    this.readyPatch(b, asText(content));
    return null;
  }

  readyPatch(b, content) {
    this.cached = null;
    if (b.retired) return;
    const r = new raw.RawPatchPreview(b.filePath, b.format, content);
    for (const lines of b.buffered) r.push(lines.join('\n'), lines.length);
    b.buffered = [];
    b.raw = r;
    if (b.completed !== null) this.finishPatch(b, b.completed);
    for (const e of r.events()) this.queued.push(this.decorate(b, e));
    if (b.completed !== null) this.retire(b);
  }

  completePatch(e) {
    const b = this.patches.shift();
    if (b.raw === null) {
      b.completed = e;
      return null;
    }
    this.finishPatch(b, e);
    const out = this.drainOf(b);
    if (this.block === b) this.block = null;
    this.retire(b);
    return out;
  }

  finishPatch(b, e) {
    b.raw.complete(e.block);
    const state = b.raw.state();
    e.preview = state;
    if (b.path !== null && (state.state === 'located' || state.state === 'create' || state.state === 'delete')) {
      const after = b.raw.contentAfter();
      const to = e.block.moveTo ?? e.block.patch?.moveTo;
      const dest = typeof to === 'string' ? raw.previewPath(to) : null;
      if (typeof dest === 'string' && dest !== b.path) {
        this.changed.set(b.path, undefined);
        this.changed.set(dest, after);
      } else this.changed.set(b.path, after);
    }
  }

  drainOf(b) {
    if (b.raw === null) return null;
    const events = b.raw.events();
    return events.length === 0 ? null : events.map((e) => this.decorate(b, e));
  }

  // A patch operation is done: keep its state as the last one, free its memory.
  retire(b) {
    b.retired = true;
    this.cached = null;
    if (this.block === b) this.block = null;
    if (b.raw !== null) {
      this.last = { block: b, state: b.raw.state() };
      b.raw.free();
      b.raw = null;
    }
  }

  // No preview for this block (a format the preview does not read).
  unsupported(b) {
    b.unsupported = true;
    b.buffered = [];
    if (b.raw !== null) b.raw.free();
    b.raw = null;
    this.cached = null;
  }

  // The file of an async read arrived: catch up on the lines so far.
  ready(b, content) {
    this.cached = null;
    if (b.unsupported) return;
    const r = new raw.RawBlockPreview(b.filePath, content);
    for (const [code, lines] of b.buffered) r.push(code, lines.join('\n'), lines.length);
    b.buffered = [];
    if (b.completed !== null) r.complete(b.completed);
    const events = r.events();
    for (const e of events) this.queued.push(this.decorate(b, e));
    if (this.block === b && !b.unsupported) b.raw = r;
    else {
      if (this.last && this.last.block === b) this.last = { block: b, state: r.state() };
      r.free();
    }
  }

  drain() {
    const b = this.block;
    if (b === null || b.raw === null) return null;
    const events = b.raw.events();
    return events.map((e) => this.decorate(b, e));
  }

  decorate(b, e) {
    e.lineNumber = b.lineNumber;
    return e;
  }

  end() {
    const b = this.block;
    if (b === null) return;
    if (b.patch) {
      // Still pending until its block-complete (the patch's end).
      this.block = null;
      return;
    }
    if (b.unsupported) {
      this.block = null;
      this.last = null;
      return;
    }
    this.block = null;
    if (b.raw !== null) {
      this.last = { block: b, state: b.raw.state() };
      b.raw.free();
      b.raw = null;
    } else this.last = { block: b, state: { state: 'waiting' } };
  }

  state() {
    if (!this.locate) return null;
    if (this.cached === null) this.cached = this.readState();
    return this.cached === undefined ? null : { ...this.cached };
  }

  readState() {
    const b = this.block;
    if (b !== null && b.unsupported) return undefined;
    // `filePath`: the deprecated alias of `path` (the name results use).
    if (b !== null) return { path: b.filePath, filePath: b.filePath, lineNumber: b.lineNumber, ...(b.raw === null ? { state: 'waiting' } : b.raw.state()) };
    if (this.last !== null) return { path: this.last.block.filePath, filePath: this.last.block.filePath, lineNumber: this.last.block.lineNumber, ...this.last.state };
    return undefined;
  }

  content() {
    const b = this.block;
    if (b === null || b.raw === null || !this.locate) return null;
    return b.raw.contentAfter() ?? null;
  }

  render(partial, incremental, theme) {
    const b = this.block;
    if (b === null || b.raw === null) return null;
    if (!incremental) return b.raw.renderFull(partial, theme);
    const json = b.raw.renderDelta(partial, theme);
    return json === '{}' ? {} : JSON.parse(json);
  }

  free() {
    this.end();
    for (const p of this.patches.splice(0)) this.retire(p);
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
