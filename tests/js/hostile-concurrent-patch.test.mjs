// Another process edits files while a patch is written through nodeHost,
// twice in a row (so the driver's one re-read does not save it). A patch
// is applied whole or not at all, and a move is one change: a file that
// keeps changing must fail the whole patch (or move) it is in, leave every
// file of it byte for byte as it was, and never lose the other process's
// text. In sequential mode the patches that do not touch it still apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEditsSync, applyEdits, nodeHost } from '../../pkg/node/index.mjs';

const tmp = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `editblocks-${name}-`));
const tree = (root) => Object.fromEntries(fs.readdirSync(root).sort().map((n) => [n, fs.readFileSync(path.join(root, n), 'utf8')]));
const runs = [
  ['applyEditsSync', applyEditsSync],
  ['applyEdits', applyEdits],
];

// nodeHost with `meddle(method, path, count)` run just before each writeFile / deleteFile.
function meddled(root, meddle) {
  const host = nodeHost(root);
  const count = {};
  const before = (method, p) => meddle(method, p, (count[`${method} ${p}`] = (count[`${method} ${p}`] || 0) + 1));
  return {
    ...host,
    writeFile: (p, c) => (before('writeFile', p), host.writeFile(p, c)),
    deleteFile: (p) => (before('deleteFile', p), host.deleteFile(p)),
  };
}

const patch = (...lines) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
const FILE_CHANGED = /^b\.txt was changed by someone else while the edits were applied .*It changed again after being read a second time, so this edit was not applied\.$/;

test('a patch of two files, one of which keeps changing: neither is written (sequential)', async () => {
  for (const [name, run] of runs) {
    const root = tmp('patch-split');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
    let n = 0;
    const host = meddled(root, (method, p) => {
      if (p === 'b.txt') fs.writeFileSync(path.join(root, 'b.txt'), `b\nother writer ${++n}\n`);
    });
    const reply = ['*** Begin Patch', '*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: b.txt', '@@', '-b', '+B', '*** End Patch', ''].join('\n');
    const result = await run(reply, host, { stage: false });
    const [a, b] = result.results;
    assert.equal(b.status, 'failed', name);
    assert.equal(b.errorKind, 'file-changed', name);
    assert.match(b.reason, FILE_CHANGED, name);
    assert.equal(a.status, 'skipped', `${name}: the other half of the patch is not written`);
    assert.equal(a.errorKind, 'atomic-aborted', name);
    assert.match(a.reason, /b\.txt/, name);
    assert.deepEqual(tree(root), { 'a.txt': 'a\n', 'b.txt': `b\nother writer ${n}\n` }, name);
    assert.deepEqual([result.filesModified, result.fileChanges], [[], []], name);
  }
});

test('a second patch of the same reply still applies when the first one fails on a changing file (sequential)', async () => {
  for (const [name, run] of runs) {
    const root = tmp('patch-next');
    for (const f of ['a', 'b', 'c']) fs.writeFileSync(path.join(root, `${f}.txt`), `${f}\n`);
    let n = 0;
    const host = meddled(root, (method, p) => {
      if (p === 'b.txt') fs.writeFileSync(path.join(root, 'b.txt'), `b\nother writer ${++n}\n`);
    });
    const reply = [
      '*** Begin Patch', '*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: b.txt', '@@', '-b', '+B', '*** End Patch',
      '', '*** Begin Patch', '*** Update File: c.txt', '@@', '-c', '+C', '*** End Patch', '',
    ].join('\n');
    const result = await run(reply, host, { stage: false });
    assert.deepEqual(result.results.map((r) => [r.path, r.status, r.errorKind ?? null]), [
      ['a.txt', 'skipped', 'atomic-aborted'],
      ['b.txt', 'failed', 'file-changed'],
      ['c.txt', 'applied', null],
    ], name);
    assert.deepEqual(tree(root), { 'a.txt': 'a\n', 'b.txt': `b\nother writer ${n}\n`, 'c.txt': 'C\n' }, name);
    assert.deepEqual(result.filesModified, ['c.txt'], name);
  }
});

test('a move whose source keeps changing creates nothing', async () => {
  for (const [name, run] of runs) {
    const root = tmp('move-source');
    fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
    let n = 0;
    const host = meddled(root, (method, p) => {
      if (method === 'deleteFile' && p === 'b.txt') fs.writeFileSync(path.join(root, 'b.txt'), `b\nother writer ${++n}\n`);
    });
    const reply = ['*** Begin Patch', '*** Update File: b.txt', '*** Move to: moved.txt', '@@', '-b', '+B', '*** End Patch', ''].join('\n');
    const result = await run(reply, host, { stage: false });
    const [r] = result.results;
    assert.deepEqual([r.status, r.errorKind], ['failed', 'file-changed'], name);
    assert.match(r.reason, FILE_CHANGED, name);
    assert.deepEqual(tree(root), { 'b.txt': `b\nother writer ${n}\n` }, `${name}: the destination is not left behind`);
    assert.deepEqual([result.filesCreated, result.filesDeleted ?? [], result.fileChanges], [[], [], []], name);
  }
});

test('a move whose destination another process creates deletes nothing: both texts stay', async () => {
  for (const [name, run] of runs) {
    const root = tmp('move-dest');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    // First try: the source changes (the driver re-reads); second try: the destination appears.
    const host = meddled(root, (method, p, count) => {
      if (method === 'deleteFile' && p === 'a.txt' && count === 1) fs.writeFileSync(path.join(root, 'a.txt'), 'a\ntheir line\n');
      if (method === 'writeFile' && p === 'b.txt' && count === 2) fs.writeFileSync(path.join(root, 'b.txt'), 'their file\n');
    });
    const reply = ['*** Begin Patch', '*** Update File: a.txt', '*** Move to: b.txt', '@@', '-a', '+A', '*** End Patch', ''].join('\n');
    const result = await run(reply, host, { stage: false });
    const [r] = result.results;
    assert.deepEqual(tree(root), { 'a.txt': 'a\ntheir line\n', 'b.txt': 'their file\n' }, `${name}: nothing lost`);
    assert.deepEqual([r.status, r.errorKind], ['failed', 'file-changed'], name);
    assert.match(r.reason, /^b\.txt was changed by someone else .*\(it did not exist when it was read and now does\).*It changed again after being read a second time, so this edit was not applied\.$/, name);
    assert.deepEqual([result.filesCreated, result.filesDeleted ?? [], result.fileChanges], [[], [], []], name);
  }
});

test('a unified diff renaming a file whose source keeps changing creates nothing', async () => {
  for (const [name, run] of runs) {
    const root = tmp('diff-rename');
    fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
    let n = 0;
    const host = meddled(root, (method, p) => {
      if (method === 'deleteFile' && p === 'b.txt') fs.writeFileSync(path.join(root, 'b.txt'), `b\nother writer ${++n}\n`);
    });
    const reply = ['diff --git a/b.txt b/renamed.txt', 'similarity index 50%', 'rename from b.txt', 'rename to renamed.txt', '--- a/b.txt', '+++ b/renamed.txt', '@@ -1 +1 @@', '-b', '+B', ''].join('\n');
    const result = await run(reply, host, { stage: false });
    assert.deepEqual(result.results.map((r) => [r.status, r.errorKind]), [['failed', 'file-changed']], name);
    assert.deepEqual(tree(root), { 'b.txt': `b\nother writer ${n}\n` }, name);
  }
});

test('a write that fails midway puts every file of the patch back byte for byte (BOM, CRLF, a move, a delete)', async () => {
  for (const [name, run] of runs) {
    const root = tmp('midway');
    const bytes = {
      'a.txt': Buffer.from('\ufeffone\r\ntwo\r\n'),
      'b.txt': Buffer.from('bee\nno final newline'),
      'gone.txt': Buffer.from('gone\r\n'),
    };
    for (const [f, b] of Object.entries(bytes)) fs.writeFileSync(path.join(root, f), b);
    const host = nodeHost(root);
    const failing = {
      ...host,
      writeFile: (p, c) => {
        if (p === 'z.txt') throw new Error('disk full (a harmless test failure)');
        return host.writeFile(p, c);
      },
    };
    const reply = patch(
      '*** Update File: a.txt', '@@', '-one', '+ONE',
      '*** Update File: b.txt', '*** Move to: moved/b.txt', '@@', '-bee', '+BEE',
      '*** Delete File: gone.txt',
      '*** Add File: z.txt', '+z',
    );
    await assert.rejects(Promise.resolve().then(() => run(reply, failing, { stage: false })), (e) => {
      assert.equal(e.name, 'HostFailureError', name);
      assert.match(e.message, /host\.writeFile\("z\.txt"\) failed: disk full .*every file is as it was before/, name);
      return true;
    });
    const now = Object.fromEntries(fs.readdirSync(root, { recursive: true }).filter((f) => fs.statSync(path.join(root, f)).isFile()).map((f) => [f, fs.readFileSync(path.join(root, f))]));
    assert.deepEqual(now, bytes, `${name}: every file as it was, byte for byte, and nothing new`);
  }
});
