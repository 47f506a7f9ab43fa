// fileChanges and dryRun through the built package, on real files (nodeHost
// in a temporary folder), for every edit style: a dry run writes nothing and
// returns each file's content before and after; the real run returns the
// same contents and leaves exactly the `after` texts on disk. renderFileChange
// draws any style's change like a text block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEdits, applyEditsSync, applyToolCalls, applyHashlineEdit, lineId, nodeHost, renderFileChange } from '../../pkg/node/index.mjs';

const FILES = {
  'src/math.py': '\ufeffdef add(a, b):\r\n    return a - b\r\n',
  'notes.txt': 'one\ntwo\nthree',
  'old.txt': 'gone soon\n',
};

function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-changes-'));
  for (const [p, t] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), t);
  }
  return dir;
}

/** Every file under `dir` (journals and state folders of the host aside), as text. */
function tree(dir) {
  const out = {};
  const walk = (d, prefix) => {
    for (const name of fs.readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const p = path.join(d, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      if (fs.statSync(p).isDirectory()) walk(p, rel);
      else out[rel] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

/** Runs `apply(host, { dryRun })` dry then for real; checks the contract and returns the changes. */
async function dryThenReal(apply) {
  const dir = project();
  const host = nodeHost(dir, { git: false });
  const start = tree(dir);
  const dry = await apply(host, { dryRun: true });
  assert.deepEqual(tree(dir), start, 'a dry run writes nothing');
  assert.ok(dry.fileChanges.length > 0, 'a dry run lists the changes it would make');
  for (const c of dry.fileChanges) {
    assert.equal(c.before, start[c.movedFrom ?? c.path] ?? null, `${c.path}: before is the file as it is`);
  }
  const real = await apply(host, {});
  assert.deepEqual(real.fileChanges, dry.fileChanges, 'the real run changes what the dry run said it would');
  const end = tree(dir);
  for (const c of real.fileChanges) {
    assert.equal(end[c.path] ?? null, c.after, `${c.path}: after is the file as written`);
    if (c.movedFrom) assert.equal(end[c.movedFrom], undefined, `${c.movedFrom} is gone after the move`);
  }
  const changed = Object.keys({ ...start, ...end }).filter((p) => start[p] !== end[p]).sort();
  assert.deepEqual([...new Set(real.fileChanges.flatMap((c) => [c.path, c.movedFrom].filter(Boolean)))].sort(), changed, 'fileChanges lists exactly the files that changed');
  fs.rmSync(dir, { recursive: true, force: true });
  return real.fileChanges;
}

const REPLY = [
  'src/math.py',
  '««« EDIT',
  'def add(a, b):',
  '    return a - b',
  '═══════ REPL',
  'def add(a, b):',
  '    return a + b',
  '»»» EDIT END',
  '',
  'src/new.py',
  '««« EDIT',
  '═══════ REPL',
  'print("new")',
  '»»» EDIT END',
  '',
].join('\n');

test('text blocks: dry run, then the same changes written, line endings and BOM kept', async () => {
  const changes = await dryThenReal((host, o) => applyEdits(REPLY, host, o));
  assert.deepEqual(changes, [
    { path: 'src/math.py', before: FILES['src/math.py'], after: '\ufeffdef add(a, b):\r\n    return a + b\r\n' },
    { path: 'src/new.py', before: null, after: 'print("new")\n' },
  ]);
  // The sync entry point says the same.
  const dir = project();
  const r = applyEditsSync(REPLY, nodeHost(dir, { git: false }), { dryRun: true });
  assert.deepEqual(r.fileChanges, changes);
  assert.deepEqual(r.results.map((x) => x.status), ['validated', 'validated']);
  assert.equal(r.results[0].path, 'src/math.py');
  assert.equal(r.results[0].filePath, 'src/math.py', 'the deprecated alias still reads');
  assert.ok(!Object.keys(r.results[0]).includes('filePath'), 'the alias is not a field of its own');
});

test('patches: update, add, delete and move', async () => {
  const patch = [
    '*** Begin Patch',
    '*** Update File: notes.txt',
    '*** Move to: docs/notes.txt',
    '@@',
    ' one',
    '-two',
    '+TWO',
    '*** Add File: added.txt',
    '+hello',
    '*** Delete File: old.txt',
    '*** End Patch',
    '',
  ].join('\n');
  const changes = await dryThenReal((host, o) => applyEdits(patch, host, o));
  const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
  assert.deepEqual(byPath['docs/notes.txt'], { path: 'docs/notes.txt', before: 'one\ntwo\nthree', after: 'one\nTWO\nthree', movedFrom: 'notes.txt' });
  assert.deepEqual(byPath['added.txt'], { path: 'added.txt', before: null, after: 'hello\n' });
  assert.deepEqual(byPath['old.txt'], { path: 'old.txt', before: 'gone soon\n', after: null });
});

test('tool calls: edit_file and write_file', async () => {
  const calls = [
    { name: 'edit_file', arguments: { path: 'src/math.py', old_string: 'a - b', new_string: 'a + b' } },
    { name: 'write_file', arguments: { path: 'notes.txt', content: 'rewritten\n' } },
  ];
  const changes = await dryThenReal((host, o) => applyToolCalls(calls, host, o));
  assert.deepEqual(changes, [
    { path: 'src/math.py', before: FILES['src/math.py'], after: '\ufeffdef add(a, b):\r\n    return a + b\r\n' },
    { path: 'notes.txt', before: 'one\ntwo\nthree', after: 'rewritten\n' },
  ]);
  // Drawn with the same renderer as a text block.
  const html = renderFileChange(changes[0], { status: 'applied' });
  assert.match(html, /class="eb-block eb-status-applied"/);
  assert.match(html, /data-file-path="src\/math\.py"/);
  assert.match(html, /eb-stat-added">\+1</);
});

test('hashline: an edit, and an edit with a rename', async () => {
  const line = '    return a - b';
  const call = { path: 'src/math.py', edits: [{ target: `2#${lineId(line)}`, new_content: ['    return a + b'] }] };
  const changes = await dryThenReal((host, o) => applyHashlineEdit(call, host, o));
  assert.deepEqual(changes, [{ path: 'src/math.py', before: FILES['src/math.py'], after: '\ufeffdef add(a, b):\r\n    return a + b\r\n' }]);

  const moved = await dryThenReal((host, o) => applyHashlineEdit({ path: 'notes.txt', rename: 'docs/n.txt', edits: [{ target: `3#${lineId('three')}`, new_content: ['3'] }] }, host, o));
  assert.deepEqual(moved, [{ path: 'docs/n.txt', before: 'one\ntwo\nthree', after: 'one\ntwo\n3', movedFrom: 'notes.txt' }]);
});

test('a refused call changes nothing and lists no change', async () => {
  const dir = project();
  const host = nodeHost(dir, { git: false });
  const r = await applyToolCalls([{ name: 'edit_file', arguments: { path: 'src/math.py', old_string: 'not there', new_string: 'x' } }], host, { dryRun: true });
  assert.equal(r.ok, false);
  assert.deepEqual(r.fileChanges, []);
});

test('renderFileChange: a created file is tagged, arguments are checked', () => {
  const html = renderFileChange({ path: 'a<b>.txt', before: null, after: 'x\n' });
  assert.match(html, /new file/);
  assert.match(html, /a&lt;b&gt;\.txt/);
  assert.throws(() => renderFileChange({ before: 'a' }), /fileChanges/);
  assert.throws(() => renderFileChange({ path: 'a', before: 1, after: null }), /change\.before must be a string or null/);
  assert.throws(() => renderFileChange({ path: 'a', before: null, after: '' }, { status: 'done' }), /status/);
});

test('a result named by path still finds its block in renderEditBlock (no index given)', async () => {
  const { parseEdits, renderEditBlock } = await import('../../pkg/node/index.mjs');
  const dir = project();
  const result = applyEditsSync(REPLY, nodeHost(dir, { git: false }), { dryRun: true });
  const [block] = parseEdits(REPLY);
  assert.match(renderEditBlock(block, result.results), /data-status="validated"/);
  // A copy (JSON, a structured clone) has path only.
  assert.match(renderEditBlock(block, JSON.parse(JSON.stringify(result.results))), /data-status="validated"/);
});
