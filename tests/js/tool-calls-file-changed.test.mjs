// A tool call whose file another process keeps changing while it is written:
// nodeHost's writeFile refuses with EDITBLOCKS_FILE_CHANGED, the driver
// re-reads once, and when the file changes again the call is answered as
// failed: the result, the call's answer and the changes all say nothing was
// written (an answer "has been edited" for an edit that was not written
// loses the model's edit silently).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyToolCalls, applyToolCallsSync } from '../../pkg/node/index.mjs';

const TEXT_EDITOR = 'str_replace_based_edit_tool';

// Each write finds the file changed: another writer appends a line between every read and write.
function busyHost(files, { changesBeforeWrite = Infinity } = {}) {
  let changes = 0;
  return {
    files,
    readFile: (p) => (files.has(p) ? files.get(p) : null),
    writeFile(p, content) {
      if (changes < changesBeforeWrite) {
        changes++;
        files.set(p, `${files.get(p) ?? ''}other ${changes}\n`);
        const e = new Error(`editblocks: ${p} was changed by someone else while the edits were applied (its content changed after it was read); nothing was written to it. Read the file again and redo the edit.`);
        e.code = 'EDITBLOCKS_FILE_CHANGED';
        throw e;
      }
      files.set(p, content);
    },
    deleteFile: (p) => files.delete(p),
  };
}

const calls = [
  { name: TEXT_EDITOR, id: 'toolu_1', arguments: { command: 'str_replace', path: 'a.txt', old_str: 'alpha', new_str: 'beta' } },
];

for (const [label, apply] of [['applyToolCalls', applyToolCalls], ['applyToolCallsSync', applyToolCallsSync]]) {
  test(`${label}: a call whose file changes again after the re-read is answered as failed, nothing claimed written`, async () => {
    const host = busyHost(new Map([['a.txt', 'alpha\n']]));
    const result = await apply(calls, host, {});
    assert.equal(result.ok, false);
    assert.equal(result.callResults[0].ok, false);
    assert.match(result.callResults[0].output, /changed/);
    assert.doesNotMatch(result.callResults[0].output, /has been edited/);
    assert.deepEqual(result.fileChanges, []);
    assert.deepEqual(result.filesModified, []);
    assert.ok(!host.files.get('a.txt').includes('beta'), 'nothing of the edit was written');
  });

  test(`${label}: a call whose file changed once is applied on the fresh read`, async () => {
    const host = busyHost(new Map([['a.txt', 'alpha\n']]), { changesBeforeWrite: 1 });
    const result = await apply(calls, host, {});
    assert.equal(result.ok, true);
    assert.equal(result.callResults[0].ok, true);
    assert.equal(host.files.get('a.txt'), 'beta\nother 1\n');
  });
}
