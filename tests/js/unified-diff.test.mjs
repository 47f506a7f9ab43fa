// unifiedDiff: the core's `diff -u` of a file change. git apply must turn
// `before` into `after` with it (patch, for hunks without context), byte for byte, for random pairs (lines
// inserted, removed and changed, a final newline added or dropped), created
// and deleted files; and the arguments are checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { unifiedDiff } from '../../pkg/node/index.mjs';
import { mulberry32 } from './support/random.mjs';

// Hunks without context go through GNU patch: git refuses them, and with
// --unidiff-zero it misreads a removed last line without its newline (it
// drops the newline of the line before, where diff -U0 and patch keep it).
function gitApply(dir, diff, zeroContext = false) {
  fs.writeFileSync(path.join(dir, 'change.diff'), diff);
  if (zeroContext) execFileSync('patch', ['-s', '-p1', '-i', 'change.diff'], { cwd: dir, stdio: 'pipe' });
  else execFileSync('git', ['apply', '--whitespace=nowarn', 'change.diff'], { cwd: dir, stdio: 'pipe' });
  fs.unlinkSync(path.join(dir, 'change.diff'));
}

function randomPair(random) {
  const words = ['alpha', 'beta', '', '  gamma();', '}', 'delta = 1', 'alpha'];
  const pick = () => words[Math.floor(random() * words.length)];
  const before = Array.from({ length: Math.floor(random() * 30) }, pick);
  const after = [];
  for (const line of before) {
    const r = random();
    if (r < 0.1) continue;
    if (r < 0.2) after.push(pick());
    else if (r < 0.3) after.push(line, pick());
    else after.push(line);
  }
  if (random() < 0.2) after.push(pick());
  const join = (lines) => (lines.length ? lines.join('\n') + (random() < 0.7 ? '\n' : '') : '');
  return [join(before), join(after)];
}

test('git apply turns before into after with unifiedDiff, for 200 random pairs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-udiff-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const random = mulberry32(20261128);
  let applied = 0;
  for (let i = 0; i < 200; i++) {
    const [before, after] = randomPair(random);
    fs.writeFileSync(path.join(dir, 'f.txt'), before);
    const diff = unifiedDiff({ path: 'f.txt', before, after }, { context: i % 4 });
    if (before === after) {
      assert.equal(diff, '', `pair ${i}: no change, no diff`);
      continue;
    }
    assert.notEqual(diff, '', `pair ${i}: a change has a diff`);
    gitApply(dir, diff, i % 4 === 0);
    assert.equal(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8'), after, `pair ${i}:\n${diff}`);
    applied++;
  }
  assert.ok(applied > 150, `most random pairs differ (${applied})`);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('created, deleted and moved files have /dev/null and both names in their headers', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-udiff-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const created = unifiedDiff({ path: 'src/new.txt', before: null, after: 'one\ntwo' });
  assert.equal(created, '--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n');
  gitApply(dir, created);
  assert.equal(fs.readFileSync(path.join(dir, 'src/new.txt'), 'utf8'), 'one\ntwo');
  const deleted = unifiedDiff({ path: 'src/new.txt', before: 'one\ntwo', after: null });
  gitApply(dir, deleted);
  assert.equal(fs.existsSync(path.join(dir, 'src/new.txt')), false);
  assert.equal(unifiedDiff({ path: 'b.txt', movedFrom: 'a.txt', before: 'x\n', after: 'y\n' }), '--- a/a.txt\n+++ b/b.txt\n@@ -1,1 +1,1 @@\n-x\n+y\n');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('unifiedDiff checks its arguments', () => {
  assert.throws(() => unifiedDiff('f.txt'), { name: 'TypeError', message: /unifiedDiff needs one entry of a result's fileChanges/ });
  assert.throws(() => unifiedDiff({ path: 'f', before: 1, after: '' }), { name: 'TypeError', message: /change\.before must be a string or null/ });
  assert.throws(() => unifiedDiff({ path: 'f', before: '', after: '' }, { context: -1 }), { name: 'TypeError', message: /context must be a whole number of lines/ });
  assert.throws(() => unifiedDiff({ path: 'f', before: '', after: '' }, { context: 'all' }), TypeError);
});
