// Patch operations through nodeHost on a real disk, against links placed by
// a hostile process or reply: a move, an add or a delete whose path, or
// whose folder, is a symbolic link leading out of the root is refused as
// `path-escape` and leaves both the root and the outside byte for byte as
// they were; a move onto another name of the same file (a link inside the
// root) is refused, not applied as a write followed by deleting the file.
// Then deletes raced against a folder/symlink swap: none lands outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEditsSync, applyHashlineEditSync, applyToolCallsSync, nodeHost } from '../../pkg/node/index.mjs';
import { startSwapper, stopSwapper } from './support/swapper.mjs';

const base = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const made = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});
const tmp = (name) => {
  const dir = fs.mkdtempSync(path.join(base, `editblocks-${name}-`));
  made.push(dir);
  return dir;
};

// Every entry of `dir` (links as their target, files as their text), to compare before and after.
const listing = (dir) =>
  fs.readdirSync(dir).sort().map((n) => {
    const p = path.join(dir, n);
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return `${n} -> ${fs.readlinkSync(p)}`;
    return st.isFile() ? `${n}: ${fs.readFileSync(p, 'utf8')}` : `${n}/`;
  });

function arena() {
  const root = tmp('root');
  const outside = tmp('outside');
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  fs.symlinkSync(outside, path.join(root, 'out'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
  fs.symlinkSync(path.join(outside, 'nothing.txt'), path.join(root, 'dangling.txt'));
  fs.symlinkSync('a.txt', path.join(root, 'alias.txt'));
  return { root, outside };
}

const patch = (...lines) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

test('a patch through a link leading out of the root is refused as path-escape, changing nothing anywhere', { skip: process.platform === 'win32' && 'symlinks need privileges' }, () => {
  const cases = [
    ['move into a linked folder', patch('*** Update File: a.txt', '*** Move to: out/new.txt', '@@', '-one', '+1'), {}],
    ['move onto a link to an outside file', patch('*** Update File: a.txt', '*** Move to: link.txt', '@@', '-one', '+1'), { overwrite: true }],
    ['move onto a dangling link', patch('*** Update File: a.txt', '*** Move to: dangling.txt', '@@', '-one', '+1'), {}],
    ['delete a link to an outside file', patch('*** Delete File: link.txt'), {}],
    ['delete a linked folder', patch('*** Delete File: out'), {}],
    ['add through a dangling link', patch('*** Add File: dangling.txt', '+x'), { overwrite: true }],
    ['add into a linked folder', patch('*** Add File: out/x.txt', '+x'), {}],
    ['git rename into a linked folder', ['diff --git a/a.txt b/out/moved.txt', 'similarity index 100%', 'rename from a.txt', 'rename to out/moved.txt', ''].join('\n'), {}],
    ['diff deleting a link to an outside file', ['--- a/link.txt', '+++ /dev/null', '@@ -1 +0,0 @@', '-secret', ''].join('\n'), {}],
  ];
  for (const [name, reply, options] of cases) {
    const { root, outside } = arena();
    const before = [listing(root), listing(outside)];
    const result = applyEditsSync(reply, nodeHost(root, { stateDir: tmp('state') }), { stage: false, ...options });
    const r = result.results[0];
    assert.deepEqual([r.status, r.errorKind], ['skipped', 'path-escape'], `${name}: ${r.reason}`);
    assert.match(r.reason, /symbolic link leads outside the project root\. Nothing outside the project root is read or written\.$/, name);
    assert.deepEqual([listing(root), listing(outside)], before, name);
    assert.deepEqual([result.filesCreated, result.filesModified, result.fileChanges], [[], [], []], name);
  }
});

test('a move onto a link to the file itself is refused, not written and then deleted', { skip: process.platform === 'win32' && 'symlinks need privileges' }, () => {
  const { root, outside } = arena();
  const before = [listing(root), listing(outside)];
  const reply = patch('*** Update File: a.txt', '*** Move to: alias.txt', '@@', '-one', '+1');
  const result = applyEditsSync(reply, nodeHost(root, { stateDir: tmp('state') }), { stage: false, overwrite: true });
  const r = result.results[0];
  assert.equal(r.status, 'failed');
  assert.match(r.reason, /"a\.txt" and "alias\.txt" name the same file/);
  assert.deepEqual([listing(root), listing(outside)], before);
});

test('5,000 deletes raced against a folder/symlink swap: no file outside the root is deleted', { skip: process.platform !== 'linux' && 'renameat2 is Linux-only' }, async () => {
  const root = tmp('delrace-root');
  const outside = tmp('delrace-outside');
  fs.mkdirSync(path.join(root, 'd'));
  fs.symlinkSync(outside, path.join(root, 'l'));
  // The outside holds files of the same names and bytes as those deleted inside.
  const N = 50;
  for (let i = 0; i < N; i++) fs.writeFileSync(path.join(outside, `f${i}.txt`), 'same\n');
  const child = await startSwapper(path.join(root, 'd'), path.join(root, 'l'));
  const counts = { deleted: 0, refused: 0, changed: 0 };
  const others = new Set();
  try {
    const host = nodeHost(root, { stateDir: tmp('delrace-state') });
    for (let i = 0; i < 5000; i++) {
      const p = `d/f${i % N}.txt`;
      try {
        host.writeFile(p, 'same\n');
        host.readFile(p);
        host.deleteFile(p);
        counts.deleted++;
      } catch (e) {
        if (e.code === 'EDITBLOCKS_PATH_ESCAPE') counts.refused++;
        else if (e.code === 'EDITBLOCKS_FILE_CHANGED') counts.changed++;
        else others.add(`${e.code}: ${e.message}`);
      }
    }
  } finally {
    await stopSwapper(child);
  }
  console.log(`delete race: ${JSON.stringify(counts)} other errors: ${[...others].join(', ') || 'none'}`);
  assert.deepEqual(fs.readdirSync(outside).sort(), Array.from({ length: N }, (_, i) => `f${i}.txt`).sort(), 'every outside file is still there');
  for (const f of fs.readdirSync(outside)) assert.equal(fs.readFileSync(path.join(outside, f), 'utf8'), 'same\n');
  assert.ok(counts.deleted > 50 && counts.refused > 50, JSON.stringify(counts));
  assert.equal(others.size, 0, [...others].join(', '));
});

// README.md -> docs/README.md: deleting or moving README.md removes the link, never its target.
function linkedReadme() {
  const root = tmp('linkdel');
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'README.md'), 'docs\n');
  fs.symlinkSync('docs/README.md', path.join(root, 'README.md'));
  fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
  return root;
}
const exists = (p) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

test('deleting a symbolic link by every way in removes the link, never the file it leads to', { skip: process.platform === 'win32' && 'symlinks need privileges' }, () => {
  const ways = [
    ['V4A delete', (host) => applyEditsSync(patch('*** Delete File: README.md'), host, { stage: false })],
    ['unified diff to /dev/null', (host) => applyEditsSync(['--- a/README.md', '+++ /dev/null', '@@ -1 +0,0 @@', '-docs', ''].join('\n'), host, { stage: false })],
    ['apply_patch_call delete_file', (host) => applyToolCallsSync([{ type: 'apply_patch_call', call_id: 'c', operation: { type: 'delete_file', path: 'README.md' } }], host, { stage: false })],
    ['hashline delete', (host) => applyHashlineEditSync({ path: 'README.md', edits: [], delete: true }, host, { stage: false })],
  ];
  for (const [name, apply] of ways) {
    const root = linkedReadme();
    const result = apply(nodeHost(root, { stateDir: tmp('state') }));
    const status = result.results ? result.results[0].status : result.status;
    assert.equal(status, 'applied', `${name}: ${JSON.stringify(result)}`);
    assert.equal(exists(path.join(root, 'README.md')), false, `${name}: the link is gone`);
    assert.equal(fs.readFileSync(path.join(root, 'docs', 'README.md'), 'utf8'), 'docs\n', `${name}: the file it led to is untouched`);
  }
});

test('moving a symbolic link writes the new file and removes the link, leaving the file it led to', { skip: process.platform === 'win32' && 'symlinks need privileges' }, () => {
  const root = linkedReadme();
  const result = applyEditsSync(patch('*** Update File: README.md', '*** Move to: GUIDE.md', '@@', '-docs', '+guide'), nodeHost(root, { stateDir: tmp('state') }), { stage: false });
  assert.equal(result.results[0].status, 'applied', result.results[0].reason);
  assert.equal(fs.readFileSync(path.join(root, 'GUIDE.md'), 'utf8'), 'guide\n');
  assert.equal(exists(path.join(root, 'README.md')), false);
  assert.equal(fs.readFileSync(path.join(root, 'docs', 'README.md'), 'utf8'), 'docs\n');
});

test('a deleted link is made again when the rest of the reply fails and is rolled back', { skip: process.platform === 'win32' && 'symlinks need privileges' }, () => {
  const root = linkedReadme();
  const inner = nodeHost(root, { stateDir: tmp('state') });
  const host = {
    readFile: (p) => inner.readFile(p),
    writeFile: (p, c) => inner.writeFile(p, c),
    deleteFile: (p) => {
      if (p === 'b.txt') throw new Error('the disk is read-only');
      inner.deleteFile(p);
    },
    beginChanges: (paths) => inner.beginChanges(paths),
    endChanges: () => inner.endChanges(),
  };
  assert.throws(() => applyEditsSync(patch('*** Delete File: README.md', '*** Delete File: b.txt'), host, { stage: false }), /every file is as it was before/);
  assert.equal(fs.readlinkSync(path.join(root, 'README.md')), 'docs/README.md');
  assert.equal(fs.readFileSync(path.join(root, 'docs', 'README.md'), 'utf8'), 'docs\n');
});

test('a path of more than 64 components is refused before anything is made; a rolled-back write removes the folders it made', () => {
  const root = tmp('deep');
  fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
  const deep = `${'d/'.repeat(1000)}x.txt`;
  const result = applyEditsSync(patch(`*** Add File: ${deep}`, '+x'), nodeHost(root, { stateDir: tmp('state') }), { stage: false });
  assert.equal(result.results[0].errorKind, 'path-escape', result.results[0].reason);
  assert.match(result.results[0].reason, /it has 1001 components \(folders and the file name\), more than the 64 accepted/);
  assert.deepEqual(fs.readdirSync(root), ['b.txt']);
  // A write into new folders, then a failure: the write is rolled back and its folders go too.
  const inner = nodeHost(root, { stateDir: tmp('state') });
  const host = {
    readFile: (p) => inner.readFile(p),
    writeFile: (p, c) => inner.writeFile(p, c),
    deleteFile: (p) => {
      if (p === 'b.txt') throw new Error('the disk is read-only');
      inner.deleteFile(p);
    },
    beginChanges: (paths) => inner.beginChanges(paths),
    endChanges: () => inner.endChanges(),
  };
  assert.throws(() => applyEditsSync(patch('*** Add File: n1/n2/n3/new.txt', '+x', '*** Delete File: b.txt'), host, { stage: false }), /every file is as it was before/);
  assert.deepEqual(fs.readdirSync(root), ['b.txt']);
  // A write that fails on its own, after its walk made folders, leaves none of them.
  fs.mkdirSync(path.join(root, 'r'));
  fs.writeFileSync(path.join(root, 'r', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(root, 'r', 'config'), '[core]\n');
  assert.throws(() => inner.writeFile('r/objects/info/packs', '\n'), (e) => e.code === 'EDITBLOCKS_REPOSITORY_SHAPE');
  assert.deepEqual(fs.readdirSync(path.join(root, 'r')).sort(), ['HEAD', 'config']);
});

test('allowFolders entries name one folder as written: .git/info/.. is refused, naming the entry', () => {
  const root = tmp('allow');
  for (const entry of ['.git/info/..', '.git', './.git/info', 'a/../.git/info', '.git//info']) {
    assert.throws(
      () => applyEditsSync(patch('*** Add File: .git/hooks/pre-commit', '+#!/bin/sh'), nodeHost(root, { stateDir: tmp('state') }), { stage: false, allowFolders: [entry] }),
      (e) => e instanceof RangeError && e.message.includes(`allowFolders entry "${entry}" was refused`),
      entry,
    );
    assert.throws(() => applyToolCallsSync([], nodeHost(root, { stateDir: tmp('state') }), { allowFolders: [entry] }), RangeError, entry);
    assert.throws(() => applyHashlineEditSync({ path: 'a.txt', edits: [] }, nodeHost(root, { stateDir: tmp('state') }), { allowFolders: [entry] }), RangeError, entry);
  }
  assert.equal(exists(path.join(root, '.git')), false);
  const r = applyEditsSync(patch('*** Add File: .git/info/exclude', '+x'), nodeHost(root, { stateDir: tmp('state') }), { stage: false, allowFolders: ['.git/info'] });
  assert.equal(r.results[0].status, 'applied', r.results[0].reason);
});

// Hard links: a file hard-linked into the root is read as what it is (its content shows in
// view, read and fileChanges.before); only someone who can read that file can make the link.
// A write replaces the name, so the other name (outside the root, or in .git) never changes.
test('a write to a hard-linked file replaces the name inside the root; the other name keeps its bytes', () => {
  const root = tmp('hardlink');
  const outside = tmp('hardlink-out');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  fs.linkSync(path.join(outside, 'secret.txt'), path.join(root, 'notes.txt'));
  const result = applyEditsSync(patch('*** Update File: notes.txt', '@@', '-secret', '+public'), nodeHost(root, { stateDir: tmp('state') }), { stage: false });
  assert.equal(result.results[0].status, 'applied');
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'public\n');
  assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(fs.statSync(path.join(outside, 'secret.txt')).nlink, 1);
});
