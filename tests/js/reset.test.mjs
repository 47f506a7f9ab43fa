// After a trap the module is re-instantiated instead of staying poisoned:
// the call that trapped throws a clear Error, later calls work, and objects
// made on the old instance refuse to run instead of touching the new one.
//
// The trap is real: the package's internal hook (not part of the API) hands
// the raw binding a tool-call array nested 5,000 levels deep, bypassing the
// boundary check of js/boundary.js, so the binding's recursive conversion
// overflows the module's stack ("memory access out of bounds"), as it did
// for every user before that check existed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import api from '../../pkg/node/index.mjs';

const internals = api[Symbol.for('editblocks.internals')];
const REPLY = 'a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n';
const block = { format: 'search-replace', filePath: 'a.txt', anchor: '', oldLines: 'old', newLines: 'new', trailingAnchor: '', rawBlock: '', lineNumber: 1 };

function deepCalls(depth = 5000) {
  let v = 'leaf';
  for (let i = 0; i < depth; i++) v = [v];
  return [{ name: 'write_file', arguments: { path: 'a.txt', content: v } }];
}

/** Makes the module trap for real; returns the Error the guard threw. */
function trap() {
  let thrown;
  try {
    internals.callRaw('toolsPlan', deepCalls());
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown, 'the raw call trapped');
  return thrown;
}

const memoryHost = () => {
  const files = new Map([['a.txt', 'old\n']]);
  return { files, readFile: (p) => files.get(p) ?? null, writeFile: (p, c) => void files.set(p, c) };
};

test('a trap throws a clear Error, re-instantiates the module, and later calls work', () => {
  const before = internals.generation();
  const err = trap();
  assert.ok(!(err instanceof WebAssembly.RuntimeError), 'the trap itself does not escape');
  assert.match(err.message, /^editblocks: internal error in an internal call \(memory access out of bounds\); the module was reset/);
  assert.match(err.message, /please report it/);
  assert.ok(err.cause instanceof WebAssembly.RuntimeError, 'the trap is kept as the cause');
  assert.equal(internals.generation(), before + 1, 'a new instance was made');
  // Everything works on the new instance, including memory views and streams.
  assert.equal(api.parseEdits(REPLY).length, 1);
  assert.equal(api.applyToContent(block, 'old\n').content, 'new\n');
  const host = memoryHost();
  api.applyToolCallsSync([{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } }], host);
  assert.equal(host.files.get('b.txt'), 'b\n');
  const stream = new api.EditStream();
  const events = [...stream.feed(REPLY.slice(0, 20)), ...stream.feed(REPLY.slice(20)), ...stream.finish()];
  assert.deepEqual(events.filter((e) => e.type === 'block-complete').map((e) => e.block.newLines), ['new']);
  // Trapping again works the same way.
  trap();
  assert.equal(internals.generation(), before + 2);
  assert.equal(api.detectFormat(REPLY), 'search-replace');
});

test('an EditStream made before the reset throws a clear error instead of touching the new instance', () => {
  const old = new api.EditStream();
  old.feed('a.txt\n<<<<<<< SEARCH\n');
  trap();
  assert.throws(() => old.feed('old\n'), { message: /this EditStream was made before the module was reset after an internal error; EditStream\.feed\(\) cannot run on it\. Make a new EditStream\./ });
  assert.throws(() => old.pending(), /made before the module was reset/);
  assert.throws(() => old.finish(), /made before the module was reset/);
  const fresh = new api.EditStream();
  assert.equal(fresh.feed(REPLY).filter((e) => e.type === 'block-complete').length, 1);
});

test('a plan made before a reset (applyEdits awaiting its host) refuses to run, and writes nothing', async () => {
  const files = new Map([['a.txt', 'old\n']]);
  const host = {
    async readFile(p) {
      trap(); // another call traps while this apply waits for its reads
      return files.get(p) ?? null;
    },
    async writeFile(p, c) {
      files.set(p, c);
    },
  };
  await assert.rejects(api.applyEdits([block], host), /this object was made before the module was reset/);
  assert.equal(files.get('a.txt'), 'old\n', 'nothing written');
  const again = await api.applyEdits([block], { readFile: async (p) => files.get(p), writeFile: async (p, c) => void files.set(p, c) });
  assert.equal(again.results[0].status, 'applied');
  assert.equal(files.get('a.txt'), 'new\n');
});

test('objects of the old instance, collected after a reset, never free into the new one', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  let streams = Array.from({ length: 300 }, () => {
    const s = new api.EditStream();
    s.feed('x.txt\n<<<<<<< SEARCH\n' + 'line\n'.repeat(50));
    return s;
  });
  trap();
  streams = null;
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  // The new instance's allocator is intact: plenty of allocation, no trap.
  const resets = internals.resetCount();
  for (let i = 0; i < 300; i++) {
    const s = new api.EditStream();
    s.feed(REPLY.repeat(5));
    s.finish();
  }
  assert.equal(api.parseEdits(REPLY.repeat(2000)).length, 2000);
  assert.equal(internals.resetCount(), resets, 'no trap after the old objects were collected');
});
