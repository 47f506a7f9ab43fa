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
import { applyEditsSync, nodeHost } from '../../pkg/node/index.mjs';
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
