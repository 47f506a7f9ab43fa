// The patch formats (apply-patch, unified-diff) through the built package:
// every case of tests/fixtures/patch/ (the Rust suite runs the same folders)
// is parsed one-shot and streamed in random chunks, then applied with
// applyEditsSync and applyEdits on in-memory hosts; files and results must
// be what the fixture says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEdits, detectFormat, EditStream, applyEdits, applyEditsSync, systemPrompt, renderEditBlock, renderEditsSummary, renderInProgressEditBlock } from '../../pkg/node/index.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'patch');
const cases = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();

function readTree(dir) {
  const out = {};
  const walk = (d, prefix) => {
    if (!fs.existsSync(d)) return;
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      if (fs.statSync(p).isDirectory()) walk(p, rel);
      else out[rel] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

function memoryHost(files) {
  const store = new Map(Object.entries(files));
  return {
    store,
    readFile: (p) => (store.has(p) ? store.get(p) : null),
    writeFile: (p, c) => void store.set(p, c),
    deleteFile: (p) => void store.delete(p),
  };
}

function asyncHost(files) {
  const h = memoryHost(files);
  return { store: h.store, readFile: async (p) => h.readFile(p), writeFile: async (p, c) => h.writeFile(p, c), deleteFile: async (p) => h.deleteFile(p) };
}

let seed = 7;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);

function streamed(reply) {
  const s = new EditStream();
  const events = [];
  let i = 0;
  while (i < reply.length) {
    const step = 1 + rand(17);
    events.push(...s.feed(reply.slice(i, i + step)));
    i += step;
  }
  events.push(...s.finish());
  return events;
}

test('the fixtures cover both formats and every failure the issue names', () => {
  assert.ok(cases.length >= 30);
  for (const name of ['ap-err-missing-end', 'ap-err-section-nowhere', 'ap-err-ambiguous', 'ap-err-add-existing', 'ap-err-delete-missing', 'ap-err-move-onto-existing', 'ap-err-path-escape']) {
    assert.ok(cases.includes(name), name);
  }
});

for (const name of cases) {
  test(`patch fixture ${name}`, async () => {
    const dir = path.join(root, name);
    const reply = fs.readFileSync(path.join(dir, 'reply.md'), 'utf8');
    const before = readTree(path.join(dir, 'before'));
    const after = fs.existsSync(path.join(dir, 'after')) ? readTree(path.join(dir, 'after')) : before;
    const options = fs.existsSync(path.join(dir, 'options.json')) ? JSON.parse(fs.readFileSync(path.join(dir, 'options.json'), 'utf8')) : {};
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));

    const blocks = parseEdits(reply);
    for (let k = 0; k < 3; k++) {
      const events = streamed(reply);
      assert.deepEqual(events.filter((e) => e.type === 'block-complete').map((e) => e.block), blocks, 'streamed blocks equal parseEdits');
      assert.deepEqual(events.filter((e) => e.type === 'block-discarded').map((e) => e.reason), expected.discarded);
      // Updates carry the body as written: every hunk line, in order.
      const written = events.filter((e) => e.type === 'block-update').flatMap((e) => (assert.equal(e.section, 'patch'), e.lines));
      let at = 0;
      for (const line of blocks.flatMap((b) => (b.hunks || []).flatMap((h) => h.lines)).filter((l) => l.length > 1)) {
        const found = written.indexOf(line, at);
        assert.ok(found >= 0, `hunk line ${JSON.stringify(line)} among the updates`);
        at = found + 1;
      }
    }

    const host = memoryHost(before);
    const result = applyEditsSync(reply, host, options);
    assert.deepEqual(Object.fromEntries([...host.store].sort()), after);
    const { fileChanges, discarded = [], ...rest } = JSON.parse(JSON.stringify(result));
    assert.deepEqual(rest, expected.result);
    // The result lists every block the parser discarded, with its reason.
    assert.deepEqual(discarded.map((d) => d.reason), expected.discarded);
    // fileChanges: each file as it was (before/) and, in a real run, as it is now (after/).
    for (const c of fileChanges) {
      assert.equal(c.before, before[c.movedFrom ?? c.path] ?? null, `fileChanges ${c.path}: before`);
      if (!options.dryRun) assert.equal(c.after, after[c.path] ?? null, `fileChanges ${c.path}: after`);
    }
    if (!options.dryRun) {
      const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => before[p] !== after[p]).sort();
      assert.deepEqual([...new Set(fileChanges.flatMap((c) => (c.movedFrom ? [c.path, c.movedFrom] : [c.path])))].sort(), changed);
    }

    const ahost = asyncHost(before);
    const aresult = await applyEdits(blocks, ahost, options);
    assert.deepEqual(Object.fromEntries([...ahost.store].sort()), after);
    assert.deepEqual(aresult.results.map((r) => r.status), expected.result.results.map((r) => r.status));

    for (const b of blocks) assert.match(renderEditBlock(b), /eb-block/);
  });
}

test('detectFormat and systemPrompt know both patch formats', () => {
  assert.equal(detectFormat('x\n*** Begin Patch\n*** Add File: a\n+1\n*** End Patch\n'), 'apply-patch');
  assert.equal(detectFormat('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'), 'unified-diff');
  assert.equal(detectFormat('--- just a rule\ntext\n'), 'none');
  for (const f of ['apply-patch', 'unified-diff']) {
    const blocks = parseEdits(systemPrompt(f), { formats: [f] });
    assert.ok(blocks.length >= 3 && blocks.every((b) => b.format === f));
  }
  assert.deepEqual(parseEdits('*** Begin Patch\n*** Add File: a\n+1\n*** End Patch\n', { formats: ['unified-diff'] }), []);
});

test('a patch block carries its operation, moveTo and hunks, with old/new lines joined', () => {
  const [b] = parseEdits('*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch\n');
  assert.equal(b.format, 'apply-patch');
  assert.equal(b.operation, 'update');
  assert.equal(b.moveTo, 'b.py');
  assert.deepEqual(b.hunks, [{ anchors: ['def f():'], lines: ['-    return 1', '+    return 2'] }]);
  assert.equal(b.oldLines, '    return 1');
  assert.equal(b.newLines, '    return 2');
  const host = memoryHost({ 'a.py': 'def f():\n    return 1\n' });
  const result = applyEditsSync([b], host);
  assert.deepEqual(Object.fromEntries(host.store), { 'b.py': 'def f():\n    return 2\n' });
  assert.deepEqual(result.filesDeleted, ['a.py']);
  assert.deepEqual(result.filesCreated, ['b.py']);
  assert.match(renderEditsSummary(result), /1/);
  assert.match(renderEditBlock(b, result.results), /eb-change">2</);
  assert.match(renderInProgressEditBlock('a.py', ['@@ def f():', '-    return 1']), /return 1/);
});

test('a unified diff whose --- line names another file carries that name as oldPath, and its refusal reads it from there', () => {
  const reply = '--- a/util.py\n+++ b/helpers.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n';
  const [b] = parseEdits(reply);
  assert.equal(b.filePath, 'helpers.py');
  assert.equal(b.oldPath, 'util.py');
  const streamed = new EditStream();
  const events = [];
  for (let i = 0; i < reply.length; i += 5) events.push(...streamed.feed(reply.slice(i, i + 5)));
  events.push(...streamed.finish());
  assert.deepEqual(events.filter((e) => e.type === 'block-complete').map((e) => e.block), [b]);
  const refusal = (block) => applyEditsSync([block], memoryHost({ 'util.py': 'def add(a, b):\n    return a - b\n' })).results[0].reason;
  assert.match(refusal(b), /The `---` line names util\.py: to edit util\.py/);
  // The block's raw text is not read when applying: without it the refusal is the same.
  assert.equal(refusal({ ...b, rawBlock: '' }), refusal(b));
  const { oldPath, ...withoutOldPath } = b;
  assert.doesNotMatch(refusal(withoutOldPath), /`---` line names/);
  // The same names on both lines: no oldPath.
  assert.equal('oldPath' in parseEdits('--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n')[0], false);
});

test('a host without deleteFile is refused before anything is written when a patch deletes', () => {
  const store = new Map([['a.txt', 'x\n']]);
  const host = { readFile: (p) => store.get(p) ?? null, writeFile: (p, c) => store.set(p, c) };
  assert.throws(() => applyEditsSync('*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n', host), /deleteFile/);
  assert.equal(store.get('a.txt'), 'x\n');
});

test('EditStream.pending() and renderInProgressEditBlock show a patch operation being written', () => {
  const s = new EditStream();
  s.feed('*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    ret');
  const p = s.pending();
  assert.equal(p.filePath, 'a.py');
  assert.equal(p.format, 'apply-patch');
  assert.deepEqual(p.sections, [{ section: 'patch', lines: ['@@ def f():', '-    return 1'] }]);
  assert.equal(p.partialLine, '+    ret');
  assert.match(renderInProgressEditBlock(p), /return 1/);
  s.finish();
});

test('on disk (nodeHost): a Delete of a folder is refused with its reason, and a patch with a move leaves nothing half done', async () => {
  const { nodeHost } = await import('../../pkg/node/index.mjs');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-patch-'));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'sub', 'x.txt'), 'x\n');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  const host = nodeHost(dir, { git: false });
  const r = await applyEdits('*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A\n*** Delete File: sub\n*** End Patch\n', host);
  assert.deepEqual(r.results.map((x) => [x.status, x.errorKind]), [['skipped', 'atomic-aborted'], ['failed', 'host-error']]);
  assert.match(r.results[1].reason, /sub is a folder/);
  assert.ok(fs.statSync(path.join(dir, 'sub')).isDirectory());
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\n');
  assert.ok(!fs.existsSync(path.join(dir, 'b.txt')));
  const ok = await applyEdits('*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A\n*** End Patch\n', host);
  assert.deepEqual(ok.filesDeleted, ['a.txt']);
  assert.equal(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8'), 'A\n');
  assert.ok(!fs.existsSync(path.join(dir, 'a.txt')));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the CLI applies both patch formats, and --format limits what it reads', async () => {
  const { spawnSync } = await import('node:child_process');
  const os = await import('node:os');
  const cli = path.join(root, '..', '..', '..', 'pkg', 'bin', 'editblocks.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-cli-patch-'));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
  const run = (reply, ...args) => spawnSync(process.execPath, [cli, 'apply', '-', '--root', dir, '--no-stage', '--no-color', ...args], { input: reply, encoding: 'utf8' });
  let r = run('*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n', '--format', 'apply-patch');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\nTWO\n');
  r = run('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n TWO\n', '--format', 'unified-diff');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'ONE\nTWO\n');
  r = run('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-nothing\n+x\n', '--format', 'unified-diff');
  assert.equal(r.status, 1);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'ONE\nTWO\n');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('patch blocks cross as records: one-shot (raw block and hunk bodies sliced from the reply where they read the same) and streamed agree, with every line as the grammar read it', () => {
  const reply = [
    'Voilà 🎉 the patch:',
    '*** Begin Patch',
    '  *** Update File: src/ünï.py', // indented header: the raw block is tidied, so it travels as text
    '@@ def f():',
    ' a = "日本"',
    '',
    '-b = 1',
    '+b = "👋🏽"',
    '*** Add File: new.txt',
    '+x',
    '',
    '+y',
    '*** Update File: c.txt',
    '*** Move to: d.txt',
    '@@',
    ' k',
    '-l',
    '+m',
    '*** End of File',
    '*** End Patch',
    '```diff',
    'diff --git a/e.txt b/e.txt',
    '--- a/e.txt',
    '+++ b/e.txt',
    '@@ -1,2 +1,2 @@',
    ' é',
    '-f',
    '\\ No newline at end of file',
    '+g',
    '\\ No newline at end of file',
    '```',
  ].join('\r\n') + '\r\n';
  const blocks = parseEdits(reply);
  assert.equal(blocks.length, 4);
  assert.deepEqual(blocks.map((b) => b.operation), ['update', 'add', 'update', 'update']);
  assert.equal(blocks[0].filePath, 'src/ünï.py');
  assert.deepEqual(blocks[0].hunks[0].lines, [' a = "日本"', ' ', '-b = 1', '+b = "👋🏽"']);
  assert.deepEqual(blocks[0].hunks[0].anchors, ['def f():']);
  assert.equal(blocks[0].newLines, 'a = "日本"\n\nb = "👋🏽"');
  assert.deepEqual(blocks[1].hunks[0].lines, ['+x', '+', '+y']);
  assert.equal(blocks[2].moveTo, 'd.txt');
  assert.equal(blocks[2].hunks[0].endOfFile, true);
  assert.ok(blocks[3].rawBlock.endsWith('--- a/e.txt\n+++ b/e.txt\n@@ -1,2 +1,2 @@\n é\n-f\n\\ No newline at end of file\n+g\n\\ No newline at end of file'), blocks[3].rawBlock);
  assert.deepEqual(blocks[3].hunks[0].lines, [' é', '-f', '+g']);
  assert.equal(blocks[3].hunks[0].noNewlineOld && blocks[3].hunks[0].noNewlineNew, true);
  for (let k = 0; k < 20; k++) {
    const events = streamed(reply);
    assert.deepEqual(events.filter((e) => e.type === 'block-complete').map((e) => e.block), blocks);
  }
});
