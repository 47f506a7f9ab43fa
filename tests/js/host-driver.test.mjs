// When a real host fails while changes are carried out, the caller learns
// exactly what was changed and what was not, and keeps the checked result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, applyEditsSync, applyToolCalls } from '../../pkg/node/index.mjs';

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

test('a sync host write failure names what was and was not changed, and keeps the result', () => {
  const host = failingHost('b.txt');
  let caught;
  try {
    applyEditsSync(reply, host);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, 'the failure is reported');
  assert.match(caught.message, /host\.writeFile\("b\.txt"\) failed: disk full/);
  assert.match(caught.message, /Already changed: a\.txt; not changed: b\.txt/);
  assert.deepEqual(caught.changed, ['a.txt']);
  assert.deepEqual(caught.notChanged, ['b.txt']);
  assert.deepEqual(caught.result.results.map((r) => r.status), ['applied', 'applied']);
  assert.equal(host.files.get('a.txt'), 'ONE\n');
  assert.equal(host.files.get('b.txt'), 'two\n', 'the failed file keeps its bytes');
});

test('an async host write failure rejects with the same details', async () => {
  const host = failingHost('a.txt', { async: true });
  await assert.rejects(applyEdits(reply, host), (e) => {
    assert.deepEqual(e.changed, []);
    assert.deepEqual(e.notChanged, ['a.txt', 'b.txt']);
    assert.equal(e.result.filesModified.length, 2);
    return true;
  });
  assert.equal(host.files.get('a.txt'), 'one\n');
  assert.equal(host.files.get('b.txt'), 'two\n');
});

test('tool calls report a failed commit the same way', async () => {
  const host = failingHost('b.txt', { async: true });
  const calls = [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } }, { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }];
  await assert.rejects(applyToolCalls(calls, host), /Already changed: a\.txt; not changed: b\.txt/);
});
