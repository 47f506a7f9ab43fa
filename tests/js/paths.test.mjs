// The core's one path check through every package entry point: refused
// paths (tests/fixtures/paths/refused.txt) come back skipped / path-escape
// with the host never read or written; allowFolders widens the check only for
// the folders it names; the CLI refuses a .git/config edit before git runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  nodeHost, applyEdits, applyEditsSync, applyToolCalls, applyToolCallsSync, applyHashlineEdit, applyHashlineEditSync,
} from '../../pkg/node/index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Same escapes as tests/all/paths.rs: \u{XXXX}, \t, \r, \n, \0.
const unescape = (line) => line
  .replace(/\\u\{([0-9a-fA-F]+)\}/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
  .replace(/\\([trn0])/g, (_, c) => ({ t: '\t', r: '\r', n: '\n', 0: '\0' })[c]);
const fixture = (name) => fs.readFileSync(path.join(root, 'tests/fixtures/paths', name), 'utf8')
  .split('\n').filter((l) => l !== '' && l !== '#' && !l.startsWith('# '));
// A lone surrogate becomes U+FFFD when it crosses into the core; it must be refused too.
const REFUSED = [...fixture('refused.txt').map(unescape), 'a\uD800b.txt', 'x/\uDC00'];
const ACCEPTED = fixture('accepted.txt').map((l) => l.split(' => '));

function memoryHost(files = {}) {
  const store = new Map(Object.entries(files));
  const touched = [];
  return {
    store, touched,
    readFile(p) { touched.push(['read', p]); return store.has(p) ? store.get(p) : null; },
    writeFile(p, c) { touched.push(['write', p]); store.set(p, c); },
    deleteFile(p) { touched.push(['delete', p]); store.delete(p); },
  };
}
const asyncHost = (files) => {
  const h = memoryHost(files);
  return { ...h, readFile: async (p) => h.readFile(p), writeFile: async (p, c) => h.writeFile(p, c), deleteFile: async (p) => h.deleteFile(p), touched: h.touched, store: h.store };
};
const block = (filePath, oldLines, newLines) => ({ format: 'search-replace', filePath, anchor: '', oldLines, newLines, trailingAnchor: '', rawBlock: '', lineNumber: 1 });
const calls = (p) => [
  { name: 'write_file', arguments: { path: p, content: 'x\n' } },
  { name: 'edit_file', arguments: { path: p, old_string: 'one', new_string: '1' } },
  { name: 'edit_file', arguments: JSON.stringify({ edits: [{ path: p, old_string: 'one', new_string: '1' }] }) },
  { name: 'modify_file', arguments: { path: p, changes: [{ start: ['one'], content: ['1'] }] } },
];
const refusedKind = (r) => [r.status, r.errorKind];

test('every refused path is refused by every entry point, sync and async, before any read', async () => {
  for (const p of REFUSED) {
    const label = JSON.stringify(p);
    for (const b of [block(p, 'one', '1'), block(p, '', 'new')]) {
      const h = memoryHost({ 'a.txt': 'one\n' });
      assert.deepEqual(refusedKind(applyEditsSync([b], h).results[0]), ['skipped', 'path-escape'], label);
      const ha = asyncHost({ 'a.txt': 'one\n' });
      assert.deepEqual(refusedKind((await applyEdits([b], ha)).results[0]), ['skipped', 'path-escape'], label);
      assert.deepEqual([...h.touched, ...ha.touched], [], `${label} touched the host`);
    }
    for (const call of calls(p)) {
      const h = memoryHost({ 'a.txt': 'one\n' });
      // JSON text cannot carry a lone surrogate (\ud800 does not parse): the call is malformed instead.
      const lone = typeof call.arguments === 'string' && /\\ud[89a-f]/i.test(call.arguments);
      const want = lone ? ['failed', 'malformed'] : ['skipped', 'path-escape'];
      assert.deepEqual(refusedKind(applyToolCallsSync([call], h).results[0]), want, `${call.name} ${label}`);
      assert.deepEqual(refusedKind((await applyToolCalls([call], h)).results[0]), want, `${call.name} ${label}`);
      assert.deepEqual(h.touched, [], `${call.name} ${label} touched the host`);
    }
    const h = memoryHost({ 'a.txt': 'one\n' });
    assert.deepEqual(refusedKind(applyHashlineEditSync({ path: p, delete: true, edits: [] }, h)), ['skipped', 'path-escape'], `hashline ${label}`);
    assert.deepEqual(refusedKind(await applyHashlineEdit({ path: 'a.txt', rename: p, edits: [] }, h)), ['skipped', 'path-escape'], `rename ${label}`);
    assert.deepEqual(h.touched, [], `hashline ${label} touched the host`);
  }
});

test('names beginning with .. and other ordinary names are accepted', () => {
  for (const [given, want] of ACCEPTED) {
    const h = memoryHost();
    const r = applyEditsSync([block(given, '', 'new')], h);
    assert.equal(r.results[0].status, 'applied', `${given}: ${r.results[0].reason}`);
    assert.equal(h.store.get(want), 'new\n');
  }
});

test('nodeHost writes names beginning with .. inside the root', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-dots-'));
  const r = applyEditsSync([block('..foo/x.txt', '', 'a'), block('...', '', 'b'), block('..bar', '', 'c')], nodeHost(dir), { stage: false });
  assert.deepEqual(r.results.map((x) => x.status), ['applied', 'applied', 'applied'], JSON.stringify(r.results.map((x) => x.reason)));
  assert.equal(fs.readFileSync(path.join(dir, '..foo', 'x.txt'), 'utf8'), 'a\n');
  assert.equal(fs.readFileSync(path.join(dir, '...'), 'utf8'), 'b\n');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('allowFolders reaches every entry point and widens only the folders named', async () => {
  const allowFolders = ['.git/info'];
  let h = memoryHost();
  assert.equal(applyEditsSync([block('.git/info/exclude', '', 'target/')], h, { allowFolders }).results[0].status, 'applied');
  assert.equal(h.store.get('.git/info/exclude'), 'target/\n');
  h = memoryHost();
  assert.equal((await applyToolCalls([{ name: 'write_file', arguments: { path: '.git/info/exclude', content: 'x\n' } }], h, { allowFolders })).ok, true);
  h = memoryHost({ 'a.txt': 'one\n' });
  assert.equal(applyHashlineEditSync({ path: 'a.txt', rename: '.git/info/exclude', edits: [] }, h, { allowFolders }).status, 'applied');
  for (const other of ['.git/config', '.GIT/info/exclude', 'git~1/info/x', '.git/info/../hooks/pre-commit']) {
    h = memoryHost();
    assert.equal(applyEditsSync([block(other, '', 'x')], h, { allowFolders }).results[0].errorKind, 'path-escape', other);
    assert.equal(applyToolCallsSync([{ name: 'write_file', arguments: { path: other, content: 'x' } }], h, { allowFolders }).results[0].errorKind, 'path-escape', other);
    assert.deepEqual(h.touched, []);
  }
  assert.throws(() => applyEditsSync([], memoryHost(), { allowFolders: '.git/info' }), /allowFolders must be an array of strings/);
  assert.throws(() => applyToolCallsSync([], memoryHost(), { allowFolders: [1] }), /allowFolders/);
});

test('the CLI refuses a .git/config edit before git runs, and --allow-folder widens it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-paths-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const config = fs.readFileSync(path.join(dir, '.git/config'), 'utf8');
  const reply = '.git/config\n<<<<<<< SEARCH\n[core]\n=======\n[core]\n\tfsmonitor = "touch pwned"\n>>>>>>> REPLACE\n';
  const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');
  const r = spawnSync(process.execPath, [cli, 'apply', '-', '--root', dir, '--json'], { input: reply, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.equal(JSON.parse(r.stdout).results[0].errorKind, 'path-escape');
  assert.equal(fs.readFileSync(path.join(dir, '.git/config'), 'utf8'), config);
  assert.equal(fs.existsSync(path.join(dir, 'pwned')), false);

  const exclude = '.git/info/exclude\n<<<<<<< SEARCH\n=======\n*.log\n>>>>>>> REPLACE\n';
  fs.rmSync(path.join(dir, '.git/info/exclude'), { force: true });
  const ok = spawnSync(process.execPath, [cli, 'apply', '-', '--root', dir, '--json', '--no-stage', '--allow-folder', '.git/info'], { input: exclude, encoding: 'utf8' });
  assert.equal(JSON.parse(ok.stdout).results[0].status, 'applied', ok.stdout + ok.stderr);
  fs.rmSync(dir, { recursive: true, force: true });
});
