// When a host fails while changes are carried out, what was already written
// is rolled back, and the caller learns exactly what happened, with a result
// that says what is on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { applyEdits, applyEditsSync, applyToolCalls, applyHashlineEdit, applyHashlineEditSync, formatHashlines, renderEditsSummary, nodeHost, HostFailureError } from '../../pkg/node/index.mjs';

const reply = [
  'a.txt', '<<<<<<< SEARCH', 'one', '=======', 'ONE', '>>>>>>> REPLACE', '',
  'b.txt', '<<<<<<< SEARCH', 'two', '=======', 'TWO', '>>>>>>> REPLACE', '',
].join('\n');

// A host over a Map whose writeFile fails for one path.
function failingHost(failOn, { async = false } = {}) {
  const files = new Map([['a.txt', 'one\n'], ['b.txt', 'two\n']]);
  const wrap = (f) => (async ? async (...a) => f(...a) : f);
  return {
    files,
    readFile: wrap((p) => files.get(p) ?? null),
    writeFile: wrap((p, c) => {
      if (p === failOn) throw new Error('disk full');
      files.set(p, c);
    }),
  };
}

test('a sync host write failure rolls back what was written and keeps the result', () => {
  const host = failingHost('b.txt');
  let caught;
  try {
    applyEditsSync(reply, host);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, 'the failure is reported');
  assert.ok(caught instanceof HostFailureError, 'a HostFailureError, catchable by class');
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'HostFailureError');
  assert.equal(caught.cause.message, 'disk full', 'the host error is the cause');
  assert.match(caught.message, /host\.writeFile\("b\.txt"\) failed: disk full/);
  assert.match(caught.message, /Rolled back: a\.txt; every file is as it was before/);
  assert.deepEqual(caught.changed, []);
  assert.deepEqual(caught.rolledBack, ['a.txt']);
  assert.deepEqual(caught.notChanged, ['a.txt', 'b.txt']);
  assert.deepEqual(caught.result.results.map((r) => [r.status, r.errorKind]), [['failed', 'host-error'], ['failed', 'host-error']]);
  assert.equal(host.files.get('a.txt'), 'one\n', 'the written file is restored');
  assert.equal(host.files.get('b.txt'), 'two\n', 'the failed file keeps its bytes');
});

test('an async host write failure rejects with the same details', async () => {
  const host = failingHost('a.txt', { async: true });
  await assert.rejects(applyEdits(reply, host), (e) => {
    assert.ok(e instanceof HostFailureError);
    assert.deepEqual(e.changed, []);
    assert.deepEqual(e.rolledBack, []);
    assert.deepEqual(e.notChanged, ['a.txt', 'b.txt']);
    assert.deepEqual(e.result.filesModified, [], 'nothing is modified on disk');
    return true;
  });
  assert.equal(host.files.get('a.txt'), 'one\n');
  assert.equal(host.files.get('b.txt'), 'two\n');
});

test('a file created before the failure is deleted again', async () => {
  const host = failingHost('b.txt', { async: true });
  host.deleteFile = async (p) => host.files.delete(p);
  const creating = ['new.txt', '<<<<<<< SEARCH', '=======', 'fresh', '>>>>>>> REPLACE', '', reply].join('\n');
  await assert.rejects(applyEdits(creating, host), (e) => {
    assert.deepEqual(e.rolledBack, ['a.txt', 'new.txt']);
    return true;
  });
  assert.deepEqual([...host.files.keys()].sort(), ['a.txt', 'b.txt']);
  assert.equal(host.files.get('a.txt'), 'one\n');
});

test('a restore that fails too is named, and those files are reported as still changed', () => {
  const host = failingHost('b.txt');
  const write = host.writeFile;
  let writes = 0;
  host.writeFile = (p, c) => {
    writes += 1;
    if (writes > 1) throw new Error('disk full');
    write(p, c);
  };
  assert.throws(
    () => applyEditsSync(reply, host),
    (e) => {
      assert.equal(
        e.message,
        'editblocks: host.writeFile("b.txt") failed: disk full. Rolled back: nothing; could not restore: a.txt (disk full) — those files still hold the new content. ' +
          'Not changed: b.txt. Fix the host problem, then restore or re-apply by hand. What is on disk is in error.result.',
      );
      assert.deepEqual(e.changed, ['a.txt']);
      assert.deepEqual(e.rolledBack, []);
      assert.deepEqual(e.notChanged, ['b.txt']);
      // a.txt holds the new text: its edit is applied, b.txt's is not.
      assert.deepEqual(e.result.results.map((r) => [r.path, r.status]), [['a.txt', 'applied'], ['b.txt', 'failed']]);
      assert.match(e.result.results[1].reason, /Could not write b\.txt: disk full\. Could not be put back, so they hold the new content: a\.txt \(disk full\)/);
      assert.deepEqual(e.result.filesModified, ['a.txt']);
      assert.deepEqual(e.result.fileChanges.map((c) => [c.path, c.before, c.after]), [['a.txt', 'one\n', 'ONE\n']]);
      return true;
    },
  );
  assert.equal(host.files.get('a.txt'), 'ONE\n');
});

// After a rollback the result says what is on disk, in every style and
// through both drivers: no edit is `applied`, no file listed as changed,
// and each edit's reason names the host call that failed, its file and its
// error. The core decides it: it runs again with the failed call replayed.
test('after a rollback no edit is reported applied and no file changed, sync and async', async () => {
  for (const async of [false, true]) {
    const host = failingHost('b.txt', { async });
    const e = await (async ? applyEdits(reply, host) : Promise.resolve().then(() => applyEditsSync(reply, host))).catch((err) => err);
    assert.ok(e instanceof HostFailureError, `async: ${async}`);
    const { result } = e;
    assert.deepEqual(result.results.map((r) => [r.path, r.status, r.errorKind]), [['a.txt', 'failed', 'host-error'], ['b.txt', 'failed', 'host-error']]);
    assert.equal(result.results[1].reason, 'Could not write b.txt: disk full. Put back as they were: a.txt.');
    assert.match(result.results[0].reason, /^Not written: Could not write b\.txt: disk full\. Put back as they were: a\.txt\. The reply's other writes were put back too\./);
    assert.deepEqual([result.filesModified, result.filesCreated, result.fileChanges], [[], [], []]);
    const summary = renderEditsSummary(result);
    assert.match(summary, /data-applied="0" data-failed="2"/);
    assert.doesNotMatch(summary, /Modified files/);
    assert.equal(result.results[0].filePath, 'a.txt', 'the deprecated alias is kept');
    assert.deepEqual([...host.files], [['a.txt', 'one\n'], ['b.txt', 'two\n']]);
  }
});

test('after a rollback a created file and a failed block are reported as on disk, in sequential mode', async () => {
  const host = failingHost('b.txt', { async: true });
  host.deleteFile = async (p) => host.files.delete(p);
  const mixed = ['new.txt', '<<<<<<< SEARCH', '=======', 'fresh', '>>>>>>> REPLACE', '', 'a.txt', '<<<<<<< SEARCH', 'absent', '=======', 'X', '>>>>>>> REPLACE', '', reply].join('\n');
  const e = await applyEdits(mixed, host, { mode: 'sequential' }).catch((err) => err);
  assert.ok(e instanceof HostFailureError);
  assert.deepEqual(e.result.results.map((r) => [r.path, r.status, r.errorKind]), [
    ['new.txt', 'failed', 'host-error'],
    ['a.txt', 'failed', 'old-mismatch'],
    ['a.txt', 'skipped', 'previous-failed'],
    ['b.txt', 'failed', 'host-error'],
  ]);
  assert.deepEqual([e.result.filesModified, e.result.filesCreated, e.result.fileChanges], [[], [], []]);
  assert.deepEqual([...host.files.keys()].sort(), ['a.txt', 'b.txt']);
});

test('a patch rolled back reports its operations not applied', () => {
  const host = failingHost('b.txt');
  host.deleteFile = (p) => host.files.delete(p);
  const patch = ['*** Begin Patch', '*** Update File: a.txt', '@@', '-one', '+ONE', '*** Add File: c.txt', '+new', '*** Update File: b.txt', '@@', '-two', '+TWO', '*** End Patch', ''].join('\n');
  const e = (() => {
    try {
      applyEditsSync(patch, host);
    } catch (err) {
      return err;
    }
  })();
  assert.ok(e instanceof HostFailureError);
  assert.deepEqual(e.result.results.map((r) => [r.path, r.status, r.errorKind]), [['a.txt', 'failed', 'host-error'], ['c.txt', 'failed', 'host-error'], ['b.txt', 'failed', 'host-error']]);
  assert.deepEqual([e.result.filesModified, e.result.filesCreated, e.result.fileChanges], [[], [], []]);
  assert.deepEqual([...host.files.keys()].sort(), ['a.txt', 'b.txt']);
});

test('tool calls and hashline edits rolled back report nothing applied', async () => {
  const host = failingHost('b.txt', { async: true });
  const calls = [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } }, { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }];
  const e = await applyToolCalls(calls, host).catch((err) => err);
  assert.ok(e instanceof HostFailureError);
  assert.equal(e.result.ok, false);
  assert.deepEqual([e.result.filesModified, e.result.filesCreated, e.result.fileChanges], [[], [], []]);
  const statuses = JSON.stringify(e.result);
  assert.doesNotMatch(statuses, /"status":"applied"/);
  assert.match(statuses, /Could not write b\.txt: disk full/);

  // A hashline rename: the new file is written, then deleting the old one fails.
  for (const async of [false, true]) {
    const files = new Map([['a.txt', 'one\n']]);
    const wrap = (f) => (async ? async (...a) => f(...a) : f);
    const renaming = {
      readFile: wrap((p) => files.get(p) ?? null),
      writeFile: wrap((p, c) => void files.set(p, c)),
      deleteFile: wrap((p) => {
        if (p === 'a.txt') throw new Error('read-only file system');
        files.delete(p);
      }),
    };
    const anchor = formatHashlines('one\n').split('\n')[0].split('|')[0];
    const call = { path: 'a.txt', rename: 'b.txt', edits: [{ target: anchor, new_content: 'ONE' }] };
    const failed = await (async ? applyHashlineEdit(call, renaming) : Promise.resolve().then(() => applyHashlineEditSync(call, renaming))).catch((err) => err);
    assert.ok(failed instanceof HostFailureError, `async: ${async}: ${failed && failed.message}`);
    assert.equal(failed.result.status, 'failed');
    assert.equal(failed.result.errorKind, 'host-error');
    assert.match(failed.result.reason, /read-only file system/);
    assert.deepEqual([failed.result.filesModified ?? [], failed.result.filesCreated ?? [], failed.result.fileChanges], [[], [], []]);
    assert.deepEqual([...files], [['a.txt', 'one\n']]);
  }
});

test('a failed stage rolls nothing back and does not throw: the result says staging failed', async () => {
  for (const async of [false, true]) {
    const host = failingHost('none', { async });
    host.stage = () => {
      throw new Error('git is not installed');
    };
    const result = async ? await applyEdits(reply, host) : applyEditsSync(reply, host);
    assert.match(result.stageError, /host\.stage failed: git is not installed\. Every change was written \(a\.txt, b\.txt\); nothing was staged/);
    assert.deepEqual(result.results.map((r) => r.status), ['applied', 'applied']);
    assert.equal(host.files.get('a.txt'), 'ONE\n');
  }
});

test('tool calls and hashline edits say a failed stage in the same words, their changes written', async () => {
  const said = 'host.stage failed: git is not installed. Every change was written (a.txt); nothing was staged. Stage those paths yourself.';
  for (const async of [false, true]) {
    const host = failingHost('none', { async });
    host.stage = () => {
      throw new Error('git is not installed');
    };
    const tools = await applyToolCalls([{ name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'ONE' } }], host);
    assert.equal(tools.stageError, said);
    assert.deepEqual([tools.ok, tools.errors], [true, []], 'a staging failure is no failed change');
    assert.equal(host.files.get('a.txt'), 'ONE\n');
    const anchor = formatHashlines('two\n').split('\n')[0].split('|')[0];
    const call = { path: 'b.txt', edits: [{ target: anchor, new_content: 'TWO' }] };
    const hashline = async ? await applyHashlineEdit(call, host) : applyHashlineEditSync(call, host);
    assert.equal(hashline.stageError, said.replace('(a.txt)', '(b.txt)'));
    assert.equal(hashline.status, 'applied');
    assert.equal(host.files.get('b.txt'), 'TWO\n');
  }
});

test('a sync call with an async writeFile refuses before writing anything', () => {
  const host = failingHost('none');
  host.writeFile = async () => {};
  assert.throws(() => applyEditsSync(reply, host), /host\.writeFile is an async function; use the async function .* Nothing was written/);
  assert.equal(host.files.get('a.txt'), 'one\n');
});

test('on a real disk, a failure while creating a folder rolls back the files already written', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-rollback-'));
  try {
    const bom = Buffer.from('\ufeffone\r\nkeep\r\n');
    fs.writeFileSync(path.join(root, 'a.txt'), bom);
    const real = nodeHost(root, { git: false });
    // Just before the second write, a file takes the name of the folder that
    // write needs, so the real mkdir fails.
    const host = {
      ...real,
      writeFile(p, c) {
        if (p === 'dir/new.txt') fs.writeFileSync(path.join(root, 'dir'), 'in the way');
        return real.writeFile(p, c);
      },
    };
    const twoFiles = ['a.txt', '<<<<<<< SEARCH', 'one', '=======', 'ONE', '>>>>>>> REPLACE', '', 'dir/new.txt', '<<<<<<< SEARCH', '=======', 'fresh', '>>>>>>> REPLACE', ''].join('\n');
    await assert.rejects(applyEdits(twoFiles, host), (e) => {
      assert.match(e.message, /host\.writeFile\("dir\/new\.txt"\) failed: .*Rolled back: a\.txt/);
      return true;
    });
    assert.deepEqual(fs.readFileSync(path.join(root, 'a.txt')), bom, 'a.txt is byte for byte as it was');
    assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt', 'dir']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('tool calls report a failed commit the same way', async () => {
  const host = failingHost('b.txt', { async: true });
  const calls = [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } }, { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }];
  await assert.rejects(applyToolCalls(calls, host), /Rolled back: a\.txt; every file is as it was before/);
  assert.equal(host.files.get('a.txt'), 'one\n');
});

test('HostFailureError is one class for import and require, with the documented fields', async () => {
  const required = createRequire(import.meta.url)('../../pkg/node/index.cjs');
  assert.equal(required.HostFailureError, HostFailureError, 'require() and import give the same class');
  const host = failingHost('a.txt', { async: true });
  const e = await applyEdits(reply, host).catch((err) => err);
  assert.ok(e instanceof required.HostFailureError);
  const made = new HostFailureError('boom', { result: { ok: false }, rolledBack: ['x'] });
  assert.deepEqual([made.message, made.result, made.changed, made.rolledBack, made.notChanged], ['boom', { ok: false }, [], ['x'], []]);
});

// The snapshot crosses into wasm packed (js/host-driver.js forCore), encoded
// straight into room the module made, one byte per UTF-16 unit and more
// when a text is not ASCII: every kind of entry in one run must read as it
// did one file at a time, whatever comes before it, and a big snapshot
// must give the same bytes.
const packedHost = (files) => {
  const store = new Map(Object.entries(files));
  return {
    store,
    readFile: (p) => {
      if (p === 'locked.txt') throw new Error('permission denied');
      return store.has(p) ? store.get(p) : null;
    },
    writeFile: (p, c) => void store.set(p, c),
    deleteFile: (p) => void store.delete(p),
  };
};

test('a packed snapshot keeps empty, missing, unreadable, byte and non-ASCII files apart', () => {
  const host = packedHost({ 'empty.txt': '', 'bytes.txt': new TextEncoder().encode('b1\nb2\n'), 'uni.txt': 'é1\n€2\n', ['__proto__']: 'p\n' });
  const patch = [
    '*** Begin Patch',
    '*** Update File: uni.txt', '@@', ' é1', '-€2', '+€3',
    '*** Update File: bytes.txt', '@@', ' b1', '-b2', '+b3',
    '*** Update File: __proto__', '@@', '-p', '+q',
    '*** Add File: new.txt', '+n',
    '*** Update File: empty.txt', '@@', '+e',
    '*** End Patch', '',
  ].join('\n');
  const r = applyEditsSync(patch, host, { stage: false });
  assert.deepEqual(r.results.map((x) => [x.path, x.status]), [
    ['uni.txt', 'applied'], ['bytes.txt', 'applied'], ['__proto__', 'applied'], ['new.txt', 'applied'], ['empty.txt', 'applied'],
  ]);
  assert.equal(host.store.get('uni.txt'), 'é1\n€3\n');
  assert.equal(host.store.get('bytes.txt'), 'b1\nb3\n');
  assert.equal(host.store.get('__proto__'), 'q\n');
  assert.equal(host.store.get('new.txt'), 'n\n');
  assert.equal(host.store.get('empty.txt'), 'e\n');
  const locked = applyEditsSync('*** Begin Patch\n*** Update File: locked.txt\n@@\n-a\n+b\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch\n', host, { stage: false, mode: 'sequential' });
  assert.equal(locked.results[0].status, 'failed');
  assert.match(locked.results[0].reason, /permission denied/);
  assert.equal(locked.results[1].errorKind, 'file-not-found');
});

test('texts that are not ASCII take more room without moving the files after them', () => {
  const files = {
    'a.txt': 'é\u{1F600}\n'.repeat(1000),
    'b.bin': new TextEncoder().encode('bytes\n'),
    'c.txt': 'plain\n',
    'd.txt': '\uD800 lone\n€\n',
    'e.bin': new TextEncoder().encode('€ more\n'),
  };
  const host = packedHost(files);
  const ops = Object.keys(files).map((p) => `*** Update File: ${p}\n@@\n+top\n`).join('');
  const r = applyEditsSync(`*** Begin Patch\n${ops}*** End Patch\n`, host, { stage: false });
  assert.deepEqual(r.results.map((x) => x.status), ['applied', 'applied', 'applied', 'applied', 'applied']);
  assert.equal(host.store.get('a.txt'), 'é\u{1F600}\n'.repeat(1000) + 'top\n');
  assert.equal(host.store.get('b.bin'), 'bytes\ntop\n');
  assert.equal(host.store.get('c.txt'), 'plain\ntop\n');
  assert.equal(host.store.get('d.txt'), '\uFFFD lone\n€\ntop\n');
  assert.equal(host.store.get('e.bin'), '€ more\ntop\n');
  assert.deepEqual(r.fileChanges.map((c) => c.before), ['é\u{1F600}\n'.repeat(1000), 'bytes\n', 'plain\n', '\uFFFD lone\n€\n', '€ more\n']);
});

test('a snapshot past 16 MB of room gives the same bytes', () => {
  const line = 'x'.repeat(99) + '\n';
  const big = line.repeat(60_000) + 'é last\n'; // ~6M UTF-16 units: 18 MB of room
  const host = packedHost({ 'big.txt': big, 'small.txt': 's\n' });
  const r = applyEditsSync('*** Begin Patch\n*** Update File: big.txt\n@@\n-é last\n+€ last\n*** Update File: small.txt\n@@\n-s\n+t\n*** End Patch\n', host, { stage: false });
  assert.deepEqual(r.results.map((x) => x.status), ['applied', 'applied']);
  assert.equal(host.store.get('big.txt'), line.repeat(60_000) + '€ last\n');
  assert.equal(host.store.get('small.txt'), 't\n');
  assert.equal(r.fileChanges[0].before, big);
});

// The paths cross in one piece when every one is ASCII, else one by one:
// a path that is not ASCII must not shift the paths after it, nor which
// path a missing or unreadable file is.
test('a path that is not ASCII keeps every path after it and every missing file in place', () => {
  const host = packedHost({ 'a.txt': 'a\n', 'dé/ü€.txt': 'u\n', 'locked.txt': 'l\n', 'z.txt': 'z\n' });
  // One patch per file: each applies or fails on its own.
  const patches = ['a.txt', 'dé/ü€.txt', 'locked.txt', 'missing.txt', 'z.txt'].map((p) => `*** Begin Patch\n*** Update File: ${p}\n@@\n+top\n*** End Patch\n`).join('\n');
  const r = applyEditsSync(patches, host, { stage: false, mode: 'sequential' });
  assert.deepEqual(r.results.map((x) => [x.path, x.status, x.errorKind ?? null]), [
    ['a.txt', 'applied', null],
    ['dé/ü€.txt', 'applied', null],
    ['locked.txt', 'failed', 'host-error'],
    ['missing.txt', 'failed', 'file-not-found'],
    ['z.txt', 'applied', null],
  ]);
  assert.equal(host.store.get('dé/ü€.txt'), 'u\ntop\n');
  assert.equal(host.store.get('z.txt'), 'z\ntop\n');
  assert.deepEqual(r.fileChanges.map((c) => [c.path, c.before]), [['a.txt', 'a\n'], ['dé/ü€.txt', 'u\n'], ['z.txt', 'z\n']]);
});

test('a rollback undoes each change as the core said: a created file deleted, a file that was there written back as the text it held', async () => {
  // (Bytes that are not UTF-8 would go back as bytes, but no edit style
  // changes such a file: each refuses it before anything is written.)
  const patch = [
    '*** Begin Patch',
    '*** Update File: text.txt', '@@', '-one', '+ONE',
    '*** Add File: new.txt', '+new',
    '*** Delete File: gone.txt',
    '*** Delete File: last.txt',
    '*** End Patch',
  ].join('\n');
  // Read as bytes: UTF-8 with a byte order mark and CRLF endings.
  const gone = new TextEncoder().encode('\ufeffgone\r\nstill here\r\n');
  for (const async of [false, true]) {
    const files = new Map([
      ['text.txt', new TextEncoder().encode('one\n')],
      ['gone.txt', gone],
      ['last.txt', 'last\n'],
    ]);
    const calls = [];
    const wrap = (f) => (async ? async (...a) => f(...a) : f);
    const host = {
      readFile: wrap((p) => files.get(p) ?? null),
      writeFile: wrap((p, c) => {
        calls.push(['write', p, typeof c === 'string' ? 'text' : 'bytes']);
        files.set(p, c);
      }),
      deleteFile: wrap((p) => {
        calls.push(['delete', p]);
        if (p === 'last.txt') throw new Error('read-only file');
        files.delete(p);
      }),
    };
    const failed = await (async ? applyEdits(patch, host) : Promise.resolve().then(() => applyEditsSync(patch, host))).catch((e) => e);
    assert.ok(failed instanceof HostFailureError, `async: ${async}: ${failed}`);
    assert.deepEqual(calls, [
      ['write', 'text.txt', 'text'],
      ['write', 'new.txt', 'text'],
      ['delete', 'gone.txt'],
      ['delete', 'last.txt'],
      // Undone newest first.
      ['write', 'gone.txt', 'text'],
      ['delete', 'new.txt'],
      ['write', 'text.txt', 'text'],
    ], `async: ${async}`);
    assert.equal(files.get('gone.txt'), '\ufeffgone\r\nstill here\r\n');
    assert.equal(files.get('text.txt'), 'one\n');
    assert.equal(files.has('new.txt'), false);
    assert.deepEqual(failed.rolledBack, ['gone.txt', 'new.txt', 'text.txt']);
  }
});

test('two names of one file are refused as the core words it, and neither is read, sync and async', async () => {
  const twoNames = [
    'a.txt', '<<<<<<< SEARCH', 'one', '=======', 'ONE', '>>>>>>> REPLACE', '',
    'link/a.txt', '<<<<<<< SEARCH', 'one', '=======', 'uno', '>>>>>>> REPLACE', '',
    'b.txt', '<<<<<<< SEARCH', 'two', '=======', 'TWO', '>>>>>>> REPLACE', '',
  ].join('\n');
  for (const async of [false, true]) {
    const files = new Map([['a.txt', 'one\n'], ['link/a.txt', 'one\n'], ['b.txt', 'two\n']]);
    const reads = [];
    const wrap = (f) => (async ? async (...a) => f(...a) : f);
    const host = {
      realPath: wrap((p) => (p === 'link/a.txt' ? 'a.txt' : p)),
      readFile: wrap((p) => (reads.push(p), files.get(p) ?? null)),
      writeFile: wrap((p, c) => void files.set(p, c)),
    };
    const result = async ? await applyEdits(twoNames, host) : applyEditsSync(twoNames, host);
    assert.deepEqual(reads, ['b.txt'], `async: ${async}`);
    const sentence = 'Could not read a.txt: "a.txt" and "link/a.txt" name the same file ("a.txt", through a symbolic link); edit it under one name only.';
    assert.equal(result.results[0].reason, sentence);
    assert.equal(result.results[1].reason, sentence.replace('read a.txt', 'read link/a.txt'));
    assert.equal(result.results[2].status, 'applied');
    assert.equal(files.get('a.txt'), 'one\n');
  }
});
