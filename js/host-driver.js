// Drives a host filesystem around the synchronous core.
//
// Every edit path works the same way: the core says which paths it needs,
// this module reads them through the host (awaiting if the host is async),
// hands the snapshot to the core, then replays the core's writes, deletes and
// stage request onto the host. The core never calls back into JavaScript, so
// a sync host and a Promise-returning host (VS Code's workspace.fs) share one
// code path.

import { sameFileRefusals, snapshotRoom } from 'editblocks-raw';
import { resultLayout } from './layout.js';
import { errorEntry, messageOf } from './read-error.js';

export const isThenable = (v) => v != null && typeof v.then === 'function';
const isAsyncFunction = (f) => typeof f === 'function' && f.constructor && f.constructor.name === 'AsyncFunction';

function checkHost(host, needsDelete) {
  if (host == null || typeof host.readFile !== 'function' || typeof host.writeFile !== 'function') {
    throw new TypeError('editblocks: the host must be an object with readFile(path) and writeFile(path, content) methods');
  }
  if (needsDelete && typeof host.deleteFile !== 'function') {
    throw new TypeError('editblocks: this change deletes or renames a file, so the host needs a deleteFile(path) method');
  }
}

/** Normalises what a host's readFile returned into what the core accepts. */
function snapshotEntry(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return { error: `readFile returned ${Object.prototype.toString.call(value)}; expected a string, a Uint8Array, null or undefined` };
}

const utf8 = new TextEncoder();

/**
 * What the host gave for each path of a plan, by position: `values[i]` for
 * `paths[i]` (a string, a Uint8Array, `null`: no such file, or `{ error,
 * kind? }`: the read failed). Kept for the packed crossing, the `before`
 * texts and rollback; the paths crossed from the core in this order, so
 * a path the core names by its position needs no lookup.
 */
class Snapshot {
  constructor(paths, values) {
    this.paths = paths;
    this.values = values;
    this.byPath = null;
  }

  /** What the host gave for `path` (`undefined`: not read): a lookup made only when needed (a rollback). */
  get(path) {
    if (this.byPath === null) {
      this.byPath = new Map();
      for (let i = this.paths.length - 1; i >= 0; i--) this.byPath.set(this.paths[i], this.values[i]);
    }
    return this.byPath.get(path);
  }
}

/**
 * The snapshot as the core reads it, packed so that it crosses into wasm in
 * a few calls whatever the number of files: every file's bytes one after
 * the other, then every path's, written straight into room the module made
 * in its own memory (`snapshotRoom`; text as UTF-8: TextEncoder writes it
 * far faster than a string crosses the boundary, and nothing is copied a
 * second time; a path crossing as a string of its own cost a call each),
 * as `[used, ends, pathEnds, others]`: `used` where the files' bytes end, `ends[i]` where path `i`'s file bytes
 * end, `pathEnds[i]` where path `i` itself ends, and `others[i]` for a path
 * with no bytes (`null`: no such file; `{ error, kind? }`: the read failed).
 * Path `i` is the plan's: the core names it by that position. `failing`
 * (after a host call failed) is appended as `[path, succeeding, message,
 * ...]`: the calls the core's run is to see fail, a `null` path the staging (see `hostFailure`).
 * (bindings/wasm/src/wasm/mod.rs `packed_snapshot` reads it.)
 */
function forCore(snapshot, failing) {
  const { paths, values } = snapshot;
  // One byte per UTF-16 unit: exact for ASCII text. A text that is not
  // ASCII asks for more room when it gets there (what was written is kept).
  let rest = 0;
  for (let i = 0; i < paths.length; i++) {
    const v = values[i];
    rest += paths[i].length;
    if (typeof v === 'string' || v instanceof Uint8Array) rest += v.length;
  }
  let room = rest;
  let bytes = snapshotRoom(room, 0);
  let at = 0;
  const putText = (v) => {
    rest -= v.length;
    let text = v;
    for (;;) {
      const { read, written } = utf8.encodeInto(text, bytes.subarray(at));
      at += written;
      if (read === text.length) break;
      // Room for the worst case of what is left: three bytes per unit.
      text = text.substring(read);
      room = at + text.length * 3 + rest;
      bytes = snapshotRoom(room, at);
    }
  };
  const ends = new Uint32Array(paths.length);
  let others = null;
  for (let i = 0; i < paths.length; i++) {
    const v = values[i];
    if (typeof v === 'string') putText(v);
    else if (v instanceof Uint8Array) {
      rest -= v.length;
      // A text before that was not ASCII may have taken this room.
      if (at + v.length > room) {
        room = at + v.length + rest;
        bytes = snapshotRoom(room, at);
      }
      bytes.set(v, at);
      at += v.length;
    } else {
      if (others === null) others = [];
      others[i] = v === undefined ? null : v;
    }
    ends[i] = at;
  }
  const used = at;
  const pathEnds = new Uint32Array(paths.length);
  // The paths in one piece: each ends where its UTF-16 units do when every
  // one is ASCII (one byte each), else each is encoded on its own.
  const start = at;
  const joined = paths.join('');
  putText(joined);
  if (at - start === joined.length) {
    let end = start;
    for (let i = 0; i < paths.length; i++) pathEnds[i] = end += paths[i].length;
  } else {
    at = start;
    rest = joined.length;
    for (let i = 0; i < paths.length; i++) {
      putText(paths[i]);
      pathEnds[i] = at;
    }
  }
  // An array, read by position (bindings/wasm/src/wasm/mod.rs `packed_snapshot`): an
  // object's fields cost the module a key string made and looked up each.
  const packed = [used, ends, pathEnds, others === null ? [] : others];
  if (failing !== undefined) packed.push(failing);
  return packed;
}

const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

// TextDecoder reads a long text several times slower in one piece than in
// pieces (measured: 256 KiB and more); pieces of 64 KiB are then joined.
const PIECE = 64 * 1024;
function decodeUtf8(bytes) {
  if (bytes.length <= 2 * PIECE) return lossyUtf8.decode(bytes);
  const pieces = [];
  for (let at = 0; at < bytes.length; ) {
    let end = Math.min(at + PIECE, bytes.length);
    // Never inside a character: back over UTF-8 continuation bytes.
    while (end < bytes.length && end > at + 1 && (bytes[end] & 0xc0) === 0x80) end--;
    pieces.push(lossyUtf8.decode(bytes.subarray(at, end)));
    at = end;
  }
  return pieces.join('');
}

/**
 * The `count` per-edit results as the core sends them (src/result.rs
 * `result_words`), from `numbers[at]` on: for each, `blockIndex`, its
 * path's number, a flags word (status in bits 0-2, error kind plus one in
 * bits 3-7, then which fields it has), then those fields' values, a string
 * being its index in `strings` and a diagnostics the next of
 * `diagnostics`. Each is built into the object a whole-JSON conversion
 * gives, key order included (src/result.rs `RESULT_KEYS`): nothing to
 * parse, and a literal of fixed keys builds fast.
 */
function resultsOf(numbers, at, count, strings, diagnostics, pathOf) {
  const { statuses, errorKinds, has } = resultLayout();
  const out = [];
  let nextDiagnostics = 0;
  for (let k = 0; k < count; k++) {
    const flags = numbers[at + 2];
    const r = { blockIndex: numbers[at], path: pathOf(numbers[at + 1]), status: statuses[flags & 7] };
    at += 3;
    if (flags & 0xf8) r.errorKind = errorKinds[((flags >>> 3) & 31) - 1];
    if (flags & has.reason) r.reason = strings[numbers[at++]];
    if (flags & has.estimatedLine) r.estimatedLine = numbers[at++];
    r.anchorPreview = strings[numbers[at]];
    r.oldPreview = strings[numbers[at + 1]];
    r.newPreview = strings[numbers[at + 2]];
    at += 3;
    if (flags & has.diagnostics) r.diagnostics = diagnostics[nextDiagnostics++];
    if (flags & has.matchedBy) r.matchedBy = strings[numbers[at++]];
    if (flags & has.assumed) {
      const assumed = [];
      for (let end = at + 1 + numbers[at++]; at < end; at++) assumed.push(strings[numbers[at]]);
      r.assumed = assumed;
    }
    out.push(r);
  }
  return out;
}

/**
 * What the core returned (bindings/wasm/src/wasm/mod.rs `host_changes`) as the driver
 * uses it: `{ result, writes: [{ path, content, undo }], deletes, deleteUndo, stage, failure? }`
 * (`undo`: how the core says the change is undone, see `undoChange`;
 * `failure`: a host call failed in a run told so, as `hostFailure` throws it).
 * `raw` is `[bytes, jsonLength, numbers]`, views of the module's memory:
 * `bytes` the JSON and then every file text; `numbers` (a Uint32Array,
 * bindings/wasm/src/wasm/mod.rs `Numbers`) where each text ends in the bytes after the
 * JSON, then the rows of the lists that grow with the files, one after
 * the other (`writes`, `changes`, and for an apply `filesModified`, where
 * each of its results' strings ends, and its results), their counts in the
 * JSON's `counts` (the last three `null` when not an apply). A
 * write's content and each file change's `before` and `after` are indexes
 * of those texts; an apply's results' strings are one text after them.
 * The views are read here, before the module is called again. The rows
 * are set here into the result's keys the core left empty (a key keeps
 * its place). A path is a number: `2i + 2` for the snapshot's
 * `paths[i]` (the list the plan gave), `2k + 1` for the JSON's
 * `names[k]`. A change's `before` the core left to the snapshot (its
 * row's last value: the path read) is the file as the host gave it, read
 * as the core read it (bytes as UTF-8 with U+FFFD for what is not; a lone
 * surrogate in a string as U+FFFD, as TextEncoder wrote it). That text
 * then never crosses back from wasm.
 */
function fromCore(raw, snapshot) {
  const { paths, values } = snapshot;
  const [bytes, jsonLength, numbers] = raw;
  const core = JSON.parse(decodeUtf8(bytes.subarray(0, jsonLength)));
  const { result, names, counts } = core;
  const [textCount, writeCount, changeCount, modifiedCount, stringCount, resultCount] = counts;
  const texts = bytes.subarray(jsonLength);
  const decoded = [];
  const text = (i) => {
    if (decoded[i] === undefined) decoded[i] = decodeUtf8(texts.subarray(i === 0 ? 0 : numbers[i - 1], numbers[i]));
    return decoded[i];
  };
  const pathOf = (p) => (p & 1 ? names[p >>> 1] : paths[(p >>> 1) - 1]);
  const snapshotText = (p) => {
    const v = p & 1 ? snapshot.get(names[p >>> 1]) : values[(p >>> 1) - 1];
    return typeof v === 'string' ? (typeof v.isWellFormed !== 'function' || v.isWellFormed() ? v : v.toWellFormed()) : v instanceof Uint8Array ? lossyUtf8.decode(v) : null;
  };
  let at = textCount;
  const writes = [];
  for (let end = at + 3 * writeCount; at < end; at += 3) writes.push({ path: pathOf(numbers[at]), content: text(numbers[at + 1]), undo: numbers[at + 2] });
  const changesAt = at;
  at += 5 * changeCount;
  if (resultCount !== null) {
    const modified = [];
    for (let end = at + modifiedCount; at < end; at++) modified.push(pathOf(numbers[at]));
    result.filesModified = modified;
    // The results' strings: one text after the file texts, each ending where
    // its number says (UTF-16 units).
    const all = decodeUtf8(texts.subarray(textCount === 0 ? 0 : numbers[textCount - 1]));
    const strings = new Array(stringCount);
    for (let i = 0, start = 0; i < stringCount; i++) strings[i] = all.slice(start, (start = numbers[at + i]));
    result.results = resultsOf(numbers, at + stringCount, resultCount, strings, core.resultDiagnostics || [], pathOf);
  }
  if (result && Array.isArray(result.fileChanges)) {
    const changes = [];
    for (let i = changesAt, end = changesAt + 5 * changeCount; i < end; i += 5) {
      const before = numbers[i + 1];
      const after = numbers[i + 2];
      const change = { path: pathOf(numbers[i]), before: numbers[i + 4] !== 0 ? snapshotText(numbers[i + 4]) : before === 0 ? null : text(before - 1), after: after === 0 ? null : text(after - 1) };
      if (numbers[i + 3] !== 0) change.movedFrom = pathOf(numbers[i + 3]);
      changes.push(change);
    }
    result.fileChanges = changes;
  }
  return { result, writes, deletes: core.deletes, deleteUndo: core.deleteUndo, stage: core.stage, failure: core.failure };
}

// A host's writeFile/deleteFile throws an error with code
// 'EDITBLOCKS_FILE_CHANGED' when the file no longer holds what readFile
// returned (another process wrote it meanwhile).
const isFileChanged = (e) => !!e && e.code === 'EDITBLOCKS_FILE_CHANGED';

/**
 * The host calls that carry out what the core decided, in order: writes
 * before deletes (a rename never loses the file if a call fails midway), then
 * staging. Each change keeps the undo the core chose for it.
 */
function replaySteps(out) {
  const steps = [];
  for (const { path, content, undo } of out.writes) steps.push({ method: 'writeFile', path, undo, call: (h) => h.writeFile(path, content) });
  out.deletes.forEach((path, i) => steps.push({ method: 'deleteFile', path, undo: out.deleteUndo[i], call: (h) => h.deleteFile(path) }));
  if (out.stage && out.stage.length) {
    steps.push({ method: 'stage', call: (h) => (typeof h.stage === 'function' ? h.stage(out.stage) : undefined) });
  }
  return steps;
}

/**
 * Undoes a change as the core said (its undo named by `resultLayout().undos`):
 * deletes a file the run created, or writes back what the host gave for
 * it, as text when the core read it as UTF-8 and as the bytes when not.
 */
function undoChange(host, { path, undo }, snapshot) {
  const how = resultLayout().undos[undo];
  if (how === 'delete') {
    if (typeof host.deleteFile !== 'function') throw new Error('the host has no deleteFile to remove the file it created');
    return host.deleteFile(path);
  }
  const original = snapshot.get(path);
  return host.writeFile(path, how === 'write-back-text' && original instanceof Uint8Array ? lossyUtf8.decode(original) : original);
}

/**
 * Thrown when a host call fails while checked changes are being written.
 * `result` says what is on disk: the edits whose files were put back are
 * not applied (`failed` / `host-error`, the reason naming the host call
 * and its error), and `filesModified`, `filesCreated`, `filesDeleted` and
 * `fileChanges` list only the files that could not be put back; `changed` the paths that still hold new
 * content (their restore failed too), `rolledBack` those written and then
 * restored, `notChanged` those as they were before the call.
 */
export class HostFailureError extends Error {
  constructor(message, { result, changed = [], rolledBack = [], notChanged = [], cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'HostFailureError';
    this.result = result;
    this.changed = changed;
    this.rolledBack = rolledBack;
    this.notChanged = notChanged;
  }
}

/**
 * The error for a host call that threw while changes were being carried
 * out, once what was written is put back (or could not be): the core runs
 * again over the same snapshot with those host calls failing as they did
 * (the failed call, then each file that could not be put back, on the call
 * that put it back). It decides what that leaves on disk: each edit path
 * says which edits are not on disk and why, lists only the files still
 * changed, and the core words the error and its lists.
 */
function hostFailure(step, cause, rollback, plan, files) {
  const failing = [step.path, 0, messageOf(cause)];
  for (const f of rollback.failed) failing.push(f.path, 1, f.reason);
  const out = fromCore(plan.run(forCore(files, failing)), files);
  // The replayed run sees the call fail (it runs over the same snapshot);
  // should it not, the error still keeps the result and the host's words.
  const f = out.failure ?? { message: `editblocks: host.${step.method} failed: ${messageOf(cause)}. What is on disk is in error.result.`, changed: rollback.failed.map((x) => x.path), rolledBack: rollback.restored, notChanged: rollback.restored };
  return new HostFailureError(f.message, { cause, result: withPathAlias(out.result), changed: f.changed, rolledBack: f.rolledBack, notChanged: f.notChanged });
}

/**
 * Staging is a convenience on top of the writes: when it fails every file
 * was still written as checked, so the result is returned, with the
 * failure in `stageError`, instead of an exception that would hide it. The
 * core runs again with the staging failing as it did, and says so.
 */
function stageFailed(cause, plan, files) {
  return fromCore(plan.run(forCore(files, [null, 0, messageOf(cause)])), files).result;
}

/**
 * Undoes the changes in `done` (newest first) and says which were put back.
 * Every changed file was read into the snapshot before any change was
 * made, so what is written back is what the host gave.
 */
function* rollback(host, done, snapshot, sync) {
  const rolledBack = { restored: [], failed: [] };
  for (let i = done.length - 1; i >= 0; i--) {
    const step = done[i];
    try {
      const r = yield undoChange(host, step, snapshot);
      if (sync && isThenable(r)) throw new Error('the host returned a Promise to a sync call');
      rolledBack.restored.push(step.path);
    } catch (e) {
      rolledBack.failed.push({ path: step.path, reason: messageOf(e) });
    }
  }
  return rolledBack;
}

/**
 * The read refused, by position, of each path of this run that names one
 * file under several names (a symbolic link inside the root), as the core
 * words it (`sameFileRefusals`): edited through both names, the second write
 * would silently undo the first. Uses the host's optional `realPath(path)`;
 * a path it cannot resolve is taken as itself.
 */
function aliasErrors(paths, realPaths) {
  return sameFileRefusals(paths, realPaths).map((error) => (error === null ? null : { error }));
}

function realPathSync(host, path) {
  try {
    const r = host.realPath(path);
    return isThenable(r) ? null : r;
  } catch {
    return null;
  }
}

const changedWhy = (cause) => messageOf(cause).replace(/^editblocks: /, '');

/** A file that changed under the run a second time (after the re-read). */
class ChangedAgain {
  constructor(path, cause) {
    this.path = path;
    this.cause = cause;
  }
}

/**
 * What to do once a write found its file changed and what was written is
 * rolled back: re-read and re-run the first time; after that the core runs
 * again with that file read as changed (`withChanged`). It fails every edit
 * of the file as `file-changed`, and with them the rest of its unit (the
 * other files of its patch, the other half of a move; in an atomic run,
 * the whole reply). Going on with the other writes instead would leave half
 * a patch written, or a move's source deleted after its destination was not
 * written (its text lost).
 */
function afterChangedAgain(path, cause, lastTry, changed) {
  if (!lastTry) return RETRY;
  // The core never writes a file it read as changed.
  if (changed.has(path)) throw new Error(`editblocks: internal error: ${path} was written after it was read as changed; every write was rolled back`);
  return new ChangedAgain(path, cause);
}

/** The snapshot with every file in `changed` as a read refused as changed (the core fails its edits as `file-changed`). */
function withChanged(read, changed) {
  if (changed.size === 0) return read;
  const values = read.paths.map((path, i) => (changed.has(path) ? { error: changedWhy(changed.get(path)), kind: 'file-changed' } : read.values[i]));
  return new Snapshot(read.paths, values);
}

/**
 * Every result names its file `path`. `filePath`, the old name of that
 * field in text-block and tool-call results, stays readable for one release
 * as a non-enumerable alias (it is not copied or compared as a field).
 */
// One getter for every result: objects given the same accessor keep
// sharing their shape (a new function for each made each result its own).
const PATH_ALIAS = Object.freeze({ get() { return this.path; }, enumerable: false, configurable: true });

export function withPathAlias(result) {
  const list = result && Array.isArray(result.results) ? result.results : [];
  for (const r of list) {
    if (r && typeof r === 'object' && typeof r.path === 'string' && !('filePath' in r)) {
      Object.defineProperty(r, 'filePath', PATH_ALIAS);
    }
  }
  return result;
}

const RETRY = Symbol('retry');

function readSnapshotSync(host, plan) {
  const { paths } = plan;
  const aliases = typeof host.realPath === 'function' && paths.length > 1 ? aliasErrors(paths, paths.map((p) => realPathSync(host, p))) : null;
  const values = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    if (aliases !== null && aliases[i] !== null) {
      values[i] = aliases[i];
      continue;
    }
    let value;
    try {
      value = host.readFile(path);
    } catch (e) {
      values[i] = errorEntry(e);
      continue;
    }
    if (isThenable(value)) {
      throw new TypeError(`editblocks: host.readFile(${JSON.stringify(path)}) returned a Promise; use the async function (applyEdits) with an async host`);
    }
    values[i] = snapshotEntry(value);
  }
  return new Snapshot(paths, values);
}

async function readSnapshotAsync(host, plan) {
  const { paths } = plan;
  let aliases = null;
  if (typeof host.realPath === 'function' && paths.length > 1) {
    const reals = await Promise.all(paths.map(async (p) => { try { return await host.realPath(p); } catch { return null; } }));
    aliases = aliasErrors(paths, reals);
  }
  const values = new Array(paths.length);
  await Promise.all(
    paths.map(async (path, i) => {
      if (aliases !== null && aliases[i] !== null) {
        values[i] = aliases[i];
        return;
      }
      try {
        values[i] = snapshotEntry(await host.readFile(path));
      } catch (e) {
        values[i] = errorEntry(e);
      }
    }),
  );
  return new Snapshot(paths, values);
}

/**
 * Runs a driver generator for a sync host: each value it yields (a host
 * call's return) goes straight back into it; a Promise among them is the
 * generator's to refuse.
 */
export function runSync(driver) {
  let step = driver.next();
  while (!step.done) step = driver.next(step.value);
  return step.value;
}

/** As runSync for an async host: each value is awaited, and a rejection is thrown in where the call was made. */
export async function runAsync(driver) {
  let step = driver.next();
  while (!step.done) {
    let value;
    try {
      value = await step.value;
    } catch (e) {
      step = driver.throw(e);
      continue;
    }
    step = driver.next(value);
  }
  return step.value;
}

/**
 * Runs `plan.run(packed)` against a snapshot read from `host` (packed by
 * `forCore`), and carries out on the host what the run decided.
 * `plan` is `{ paths: string[], needsDelete?: boolean, run(files) -> { result, writes, deletes, stage } }`.
 * When a write finds its file changed since the read (EDITBLOCKS_FILE_CHANGED),
 * what was written is rolled back and the plan re-runs once on a fresh read;
 * if a file changes again, see afterChangedAgain.
 */
export const driveSync = (host, plan) => runSync(drive(host, plan, true));

/** As driveSync, awaiting every host call. Reads run concurrently. */
export const driveAsync = (host, plan) => runAsync(drive(host, plan, false));

/**
 * The driver, one for both kinds of host: it yields what each host call
 * returned, and `runSync` hands it straight back while `runAsync` awaits
 * it; `sync` says which, for what only a sync call must refuse.
 */
export function* drive(host, plan, sync) {
  checkHost(host, plan.needsDelete);
  for (let attempt = 1; ; attempt++) {
    const read = sync ? readSnapshotSync(host, plan) : yield readSnapshotAsync(host, plan);
    const changed = new Map();
    for (;;) {
      const files = withChanged(read, changed);
      const out = fromCore(plan.run(forCore(files)), files);
      const r = yield* replay(host, plan, out, files, attempt > 1, changed, sync);
      if (r === RETRY) break;
      if (r instanceof ChangedAgain) {
        changed.set(r.path, r.cause);
        continue;
      }
      return withPathAlias(r);
    }
  }
}

/** An async method cannot be used from a sync call: found out before the first write rather than after it (the reply would be half written). */
function refuseAsyncMethods(host, steps) {
  const methods = new Set(steps.map((s) => s.method));
  if (steps.some((s) => s.method !== 'stage')) methods.add('beginChanges').add('endChanges');
  for (const method of methods) {
    if (isAsyncFunction(host[method])) {
      throw new TypeError(`editblocks: host.${method} is an async function; use the async function (applyEdits, applyToolCalls, applyHashlineEdit) with this host. Nothing was written.`);
    }
  }
}

function* replay(host, plan, out, files, lastTry, changed, sync) {
  const steps = replaySteps(out);
  if (sync) refuseAsyncMethods(host, steps);
  const done = [];
  let open = false;
  function* end() {
    if (open && typeof host.endChanges === 'function') {
      open = false;
      yield host.endChanges();
    }
    open = false;
  }
  try {
    for (const step of steps) {
      if (step.method === 'stage') {
        yield* end();
        try {
          const r = yield step.call(host);
          if (sync && isThenable(r)) throw new TypeError('host.stage returned a Promise to a sync call');
        } catch (e) {
          return stageFailed(e, plan, files);
        }
        break;
      }
      if (!open && typeof host.beginChanges === 'function') {
        yield host.beginChanges(steps.filter((s) => s.path !== undefined).map((s) => s.path));
        open = true;
      }
      let r;
      try {
        r = yield step.call(host);
      } catch (e) {
        const undone = yield* rollback(host, done, files, sync);
        if (isFileChanged(e) && undone.failed.length === 0) return afterChangedAgain(step.path, e, lastTry, changed);
        throw hostFailure(step, e, undone, plan, files);
      }
      if (sync && isThenable(r)) {
        // The write is under way and cannot be awaited or undone from here.
        const started = [...done.map((s) => s.path), step.path];
        const err = new TypeError(
          `editblocks: host.${step.method} returned a Promise; use the async function with an async host. ` +
            `Changed or being changed: ${started.join(', ')}; restore them from error.result if needed.`,
        );
        err.result = out.result;
        err.changed = started;
        throw err;
      }
      done.push(step);
    }
  } finally {
    yield* end();
  }
  return out.result;
}
