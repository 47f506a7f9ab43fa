// Drives a host filesystem around the synchronous core.
//
// Every edit path works the same way: the core says which paths it needs,
// this module reads them through the host (awaiting if the host is async),
// hands the snapshot to the core, then replays the core's writes, deletes and
// stage request onto the host. The core never calls back into JavaScript, so
// a sync host and a Promise-returning host (VS Code's workspace.fs) share one
// code path.

const isThenable = (v) => v != null && typeof v.then === 'function';

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

const errorEntry = (e) => ({ error: String(e && e.message ? e.message : e) });

/**
 * The host calls that carry out what the core decided, in order: writes
 * before deletes (a rename never loses the file if a call fails midway), then
 * staging.
 */
function replaySteps(out) {
  const steps = [];
  for (const { path, content } of out.writes || []) steps.push({ method: 'writeFile', path, call: (h) => h.writeFile(path, content) });
  for (const path of out.deletes || []) steps.push({ method: 'deleteFile', path, call: (h) => h.deleteFile(path) });
  if (out.stage && out.stage.length) {
    steps.push({ method: 'stage', call: (h) => (typeof h.stage === 'function' ? h.stage(out.stage) : undefined) });
  }
  return steps;
}

/**
 * The error for a host call that threw while changes were being carried
 * out. The edits were already checked, so the error keeps the result and
 * says exactly which files were changed and which were not.
 */
function hostFailure(step, cause, out, done) {
  const changes = [...(out.writes || []).map((w) => w.path), ...(out.deletes || [])];
  const notDone = changes.slice(done.length);
  const what = step.path === undefined ? `host.${step.method}` : `host.${step.method}(${JSON.stringify(step.path)})`;
  const err = new Error(
    `editblocks: ${what} failed: ${cause && cause.message ? cause.message : cause}. ` +
      `Already changed: ${done.length ? done.join(', ') : 'nothing'}; not changed: ${notDone.length ? notDone.join(', ') : 'nothing'}. ` +
      'The checked result is in error.result; fix the host problem, then apply the remaining changes again.',
    { cause },
  );
  err.result = out.result;
  err.changed = done;
  err.notChanged = notDone;
  return err;
}

/**
 * Runs `plan.run(files)` against a snapshot read synchronously from `host`.
 * `plan` is `{ paths: string[], needsDelete?: boolean, run(files) -> { result, writes, deletes, stage } }`.
 */
export function driveSync(host, plan) {
  checkHost(host, plan.needsDelete);
  const files = {};
  for (const path of plan.paths) {
    let value;
    try {
      value = host.readFile(path);
    } catch (e) {
      files[path] = errorEntry(e);
      continue;
    }
    if (isThenable(value)) {
      throw new TypeError(`editblocks: host.readFile(${JSON.stringify(path)}) returned a Promise; use the async function (applyEdits) with an async host`);
    }
    files[path] = snapshotEntry(value);
  }
  const out = plan.run(files);
  const done = [];
  for (const step of replaySteps(out)) {
    let r;
    try {
      r = step.call(host);
    } catch (e) {
      throw hostFailure(step, e, out, done);
    }
    if (isThenable(r)) throw new TypeError(`editblocks: host.${step.method} returned a Promise; use the async function with an async host`);
    if (step.path !== undefined) done.push(step.path);
  }
  return out.result;
}

/** As driveSync, awaiting every host call. Reads run concurrently. */
export async function driveAsync(host, plan) {
  checkHost(host, plan.needsDelete);
  const files = {};
  await Promise.all(
    plan.paths.map(async (path) => {
      try {
        files[path] = snapshotEntry(await host.readFile(path));
      } catch (e) {
        files[path] = errorEntry(e);
      }
    }),
  );
  const out = plan.run(files);
  const done = [];
  for (const step of replaySteps(out)) {
    try {
      await step.call(host);
    } catch (e) {
      throw hostFailure(step, e, out, done);
    }
    if (step.path !== undefined) done.push(step.path);
  }
  return out.result;
}
