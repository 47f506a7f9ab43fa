// Two processes edit different lines of one file at the same time through
// nodeHost. An edit reported `applied` must be in the final file: a writer
// never replaces a file that changed since it was read (the driver re-reads
// and re-runs once, else the edit fails as `file-changed`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEditsSync, applyEdits, applyToolCallsSync, applyToolCalls, nodeHost } from '../../pkg/node/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.join(here, '../../pkg/node/index.mjs');
const tmp = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `editblocks-${name}-`));
const block = (filePath, oldLines, newLines) => ({ format: 'edit-repl', filePath, anchor: '', oldLines, newLines, trailingAnchor: '', rawBlock: '', lineNumber: 1 });

// One writer: edits its own lines one apply at a time, printing what the result said.
const WRITER = `
import fs from 'node:fs';
const { applyEditsSync, nodeHost } = await import(process.argv[1]);
const [root, who, lines, go] = process.argv.slice(2);
while (!fs.existsSync(go)) {}
const report = { applied: [], failed: {} };
for (const n of lines.split(',')) {
  const host = nodeHost(root);
  const block = { format: 'edit-repl', filePath: 'shared.txt', anchor: '', oldLines: 'line ' + n + ': -', newLines: 'line ' + n + ': ' + who, trailingAnchor: '', rawBlock: '', lineNumber: 1 };
  const r = applyEditsSync([block], host, { stage: false }).results[0];
  if (r.status === 'applied') report.applied.push(Number(n));
  else report.failed[r.errorKind] = (report.failed[r.errorKind] || 0) + 1;
}
process.stdout.write(JSON.stringify(report));
`;

function writer(root, who, lines, go, state) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, pkg, root, who, lines.join(','), go], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, EDITBLOCKS_STATE_DIR: state },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer ${who} exited ${code}: ${err}`)))));
}

test('two processes editing different lines of one file: no applied edit is lost', async () => {
  const root = tmp('concurrent');
  const state = tmp('concurrent-state');
  const N = 600;
  fs.writeFileSync(path.join(root, 'shared.txt'), Array.from({ length: N }, (_, i) => `line ${i}: -\n`).join(''));
  const go = path.join(state, 'go');
  const evens = Array.from({ length: N / 2 }, (_, i) => 2 * i);
  const odds = evens.map((n) => n + 1);
  const started = performance.now();
  const runs = [writer(root, 'A', evens, go, state), writer(root, 'B', odds, go, state)];
  setTimeout(() => fs.writeFileSync(go, ''), 300);
  const [a, b] = await Promise.all(runs);
  const ms = Math.round(performance.now() - started);
  const final = fs.readFileSync(path.join(root, 'shared.txt'), 'utf8').split('\n');
  const lost = [...a.applied.map((n) => [n, 'A']), ...b.applied.map((n) => [n, 'B'])].filter(([n, who]) => final[n] !== `line ${n}: ${who}`);
  console.log(`concurrent: A applied ${a.applied.length} (failed ${JSON.stringify(a.failed)}), B applied ${b.applied.length} (failed ${JSON.stringify(b.failed)}), lost ${lost.length}, ${ms} ms`);
  assert.deepEqual(lost, [], 'every edit reported applied is in the file');
  // Edits that were not applied were not written either, and failed only as file-changed.
  for (const r of [a, b]) for (const kind of Object.keys(r.failed)) assert.equal(kind, 'file-changed');
  const written = final.filter((l) => / [AB]$/.test(l)).length;
  assert.equal(written, a.applied.length + b.applied.length);
  assert.ok(a.applied.length + b.applied.length > N / 2, 'most edits went through');
  assert.deepEqual(fs.readdirSync(root), ['shared.txt'], 'no temporary file is left');
});

test('a file changed after it was read: re-read and re-run once, so both changes stay', async () => {
  for (const sync of [true, false]) {
    const root = tmp('changed');
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    const host = nodeHost(root);
    // A host that lets another writer in between the read and the write, once.
    let interfered = false;
    const meddling = {
      ...host,
      readFile: (p) => host.readFile(p),
      writeFile: (p, c) => {
        if (!interfered) {
          interfered = true;
          fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
        }
        return host.writeFile(p, c);
      },
    };
    const run = sync ? applyEditsSync : applyEdits;
    const result = await run([block('a.txt', 'one', 'ONE')], meddling, { stage: false });
    assert.equal(result.results[0].status, 'applied');
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'ONE\ntwo\nthree\n');
  }
});

// A folder with a.txt and b.txt, and a nodeHost over it through which every
// write of a.txt finds it changed: another writer rewrites it first.
// `writes()` is how many times it did.
function churningFolder(name) {
  const root = tmp(name);
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(root, 'b.txt'), 'bee\n');
  const host = nodeHost(root);
  let n = 0;
  const churning = {
    ...host,
    writeFile: (p, c) => {
      if (p === 'a.txt') fs.writeFileSync(path.join(root, 'a.txt'), `one\nother writer ${++n}\n`);
      return host.writeFile(p, c);
    },
  };
  return { root, churning, writes: () => n };
}

test('a file that keeps changing fails as file-changed, naming the file, and nothing of it is written', async () => {
  for (const mode of ['sequential', 'atomic']) {
    const { root, churning, writes } = churningFolder('churn');
    const result = applyEditsSync([block('b.txt', 'bee', 'BEE'), block('a.txt', 'one', 'ONE')], churning, { stage: false, mode });
    const [b, a] = result.results;
    assert.equal(a.status, 'failed');
    assert.equal(a.errorKind, 'file-changed');
    assert.match(a.reason, /^a\.txt was changed by someone else while the edits were applied \(its content changed after it was read\); nothing was written to it\. Read the file again and redo the edit\. It changed again after being read a second time, so this edit was not applied\.$/);
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), `one\nother writer ${writes()}\n`);
    if (mode === 'atomic') {
      assert.equal(b.status, 'skipped');
      assert.equal(b.errorKind, 'atomic-aborted');
      assert.match(b.reason, /a\.txt changed on disk while the reply was written, and the reply is applied all or nothing/);
      assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'bee\n');
      assert.deepEqual(result.filesModified, []);
    } else {
      assert.equal(b.status, 'applied');
      assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'BEE\n');
      assert.deepEqual(result.filesModified, ['b.txt']);
    }
    assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt', 'b.txt']);
  }
});

test('tool calls to a file that keeps changing: the call is answered as failed, the other call as not written', async () => {
  for (const sync of [true, false]) {
    const { root, churning, writes } = churningFolder('churn-calls');
    const calls = [
      { name: 'edit_file', arguments: { path: 'b.txt', old_string: 'bee', new_string: 'BEE' } },
      { name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'ONE' } },
    ];
    const result = sync ? applyToolCallsSync(calls, churning, { stage: false }) : await applyToolCalls(calls, churning, { stage: false });
    const [b, a] = result.results;
    assert.equal(a.status, 'failed');
    assert.equal(a.errorKind, 'file-changed');
    assert.match(a.reason, /^call 2 \(edit_file\), a\.txt: a\.txt was changed by someone else while the edits were applied .*It changed again after being read a second time, so this edit was not applied\.$/);
    // Tool calls are applied all or nothing: the other call is not written, and says why.
    assert.equal(b.status, 'skipped');
    assert.equal(b.errorKind, 'atomic-aborted');
    assert.equal(b.reason, 'Not written: a.txt changed on disk while the reply was written, and the reply is applied all or nothing. This edit was fine: send it again as it was, once a.txt has been read again.');
    assert.equal(result.ok, false);
    const answers = result.callResults;
    assert.equal(answers.length, 2);
    assert.ok(answers.every((c) => c.ok === false), JSON.stringify(answers));
    assert.match(answers[1].output, /It changed again after being read a second time/);
    assert.match(answers[0].output, /a\.txt changed on disk while the reply was written/);
    assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'bee\n');
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), `one\nother writer ${writes()}\n`);
    assert.deepEqual(result.filesModified, []);
  }
});

test('a file created by someone else after it was read as missing is not overwritten', () => {
  const root = tmp('created');
  const host = nodeHost(root);
  assert.equal(host.readFile('new.txt'), null);
  fs.writeFileSync(path.join(root, 'new.txt'), 'theirs\n');
  assert.throws(() => host.writeFile('new.txt', 'ours\n'), (e) => e.code === 'EDITBLOCKS_FILE_CHANGED' && /did not exist when it was read and now does/.test(e.message));
  assert.equal(fs.readFileSync(path.join(root, 'new.txt'), 'utf8'), 'theirs\n');
  assert.deepEqual(fs.readdirSync(root), ['new.txt']);
});
