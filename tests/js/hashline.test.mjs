// The hashline API of the built package (node scripts/build.mjs first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  lineId,
  formatHashlines,
  applyHashlineEdit,
  applyHashlineEditSync,
  hashlineSystemPrompt,
  systemPrompt,
} from '../../pkg/node/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures', 'hashline');

// An independent implementation of the documented algorithm, in plain JS
// with BigInt: FNV-1a 64 over UTF-8 of the trimmed-right line, then fmix64,
// then 5-bit digits from the top in Crockford's lower-case base 32.
const M = (1n << 64n) - 1n;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
function referenceLineId(line, width = 3) {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(line.replace(/\s+$/u, ''))) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & M;
  }
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & M;
  h ^= h >> 33n;
  h = (h * 0xc4ceb9fe1a85ec53n) & M;
  h ^= h >> 33n;
  let id = '';
  for (let i = 0; i < width; i++) id += ALPHABET[Number((h >> BigInt(64 - 5 * (i + 1))) & 31n)];
  return id;
}

test('lineId follows the documented algorithm, in every width', () => {
  const lines = ['', 'fn main() {', '  const x = 1;\t \r', 'héllo wörld ✓', '😀 emoji', '}', '\u00a0nbsp lead'];
  for (const line of lines) {
    for (const width of [1, 2, 3, 4, 6, 12]) {
      assert.equal(lineId(line, { width }), referenceLineId(line, width), `${JSON.stringify(line)} width ${width}`);
    }
    assert.equal(lineId(line), referenceLineId(line, 3));
  }
  // Fixed values, so a change of algorithm can never go unnoticed.
  assert.equal(lineId('fn main() {'), 'rj3');
  assert.equal(lineId('let answer = 42;', { width: 8 }), 'b4edwj5z');
  assert.equal(lineId('x = 1;  '), lineId('x = 1;'));
  assert.throws(() => lineId('x', { width: 13 }), /width must be an integer from 1 to 12/);
  assert.throws(() => lineId('x', { width: 2.5 }), /lineId option width must be a whole number, got 2.5/);
  assert.throws(() => lineId('x', { width: -1 }), /from 1 to 12, got -1/);
  assert.throws(() => lineId(42), TypeError);
});

test('formatHashlines renders N#ID|content for a range', () => {
  const text = 'alpha\r\nbeta\r\ngamma\r\n';
  assert.equal(formatHashlines(text), `1#${lineId('alpha')}|alpha\n2#${lineId('beta')}|beta\n3#${lineId('gamma')}|gamma`);
  assert.equal(formatHashlines(text, { startLine: 2, endLine: 2 }), `2#${lineId('beta')}|beta`);
  assert.equal(formatHashlines(text, { startLine: 9 }), '');
  assert.equal(formatHashlines('x\n', { width: 5 }), `1#${lineId('x', { width: 5 })}|x`);
  assert.throws(() => formatHashlines(text, { startLine: 1.5 }), { name: 'TypeError', message: /formatHashlines option startLine must be a whole number from 0, got 1\.5/ });
  assert.throws(() => formatHashlines(text, { endLine: -2 }), { name: 'RangeError', message: /formatHashlines option endLine must be a whole number from 0, got -2/ });
});

function readTree(dir) {
  const out = new Map();
  if (!fs.existsSync(dir)) return out;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p).split(path.sep).join('/'), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const mapHost = (files, { async = false } = {}) => {
  const wrap = (f) => (async ? (...a) => Promise.resolve().then(() => f(...a)) : f);
  const log = [];
  return {
    log,
    readFile: wrap((p) => files.get(p) ?? null),
    writeFile: wrap((p, c) => { log.push(['write', p]); files.set(p, c); }),
    deleteFile: wrap((p) => { log.push(['delete', p]); files.delete(p); }),
  };
};

const cases = fs.readdirSync(fixtures, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

test('every fixture gives the same files and errors through the package, sync and async', async () => {
  assert.ok(cases.length >= 30);
  for (const name of cases) {
    const dir = path.join(fixtures, name);
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'call.json'), 'utf8'));
    const before = readTree(path.join(dir, 'before'));
    for (const mode of ['sync', 'async']) {
      const files = new Map(before);
      const host = mapHost(files, { async: mode === 'async' });
      const result = mode === 'sync'
        ? applyHashlineEditSync(spec.call, host, spec.options)
        : await applyHashlineEdit(spec.call, host, spec.options);
      if (spec.expect === 'applied') {
        assert.equal(result.status, 'applied', `${name} (${mode}): ${result.message}`);
        assert.deepEqual(Object.fromEntries(files), Object.fromEntries(readTree(path.join(dir, 'after'))), `${name} (${mode})`);
      } else {
        assert.equal(result.errorKind, spec.expect, `${name} (${mode}): ${result.message}`);
        assert.equal(result.reason, fs.readFileSync(path.join(dir, 'error.txt'), 'utf8'), `${name} (${mode})`);
        assert.deepEqual(host.log, [], `${name} (${mode}): a refused call touched the host`);
        assert.deepEqual(Object.fromEntries(files), Object.fromEntries(before));
      }
    }
  }
});

test('read, edit, and a stale retry using the anchors from the error', async () => {
  const files = new Map([['src/a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n']]);
  const host = mapHost(files, { async: true });
  const view = formatHashlines(files.get('src/a.ts'));
  const anchorOf = (v, n) => v.split('\n')[n - 1].split('|')[0];
  const b = anchorOf(view, 2);
  // The file changes after the read: a line is inserted at the top.
  files.set('src/a.ts', '// header\n' + files.get('src/a.ts'));
  const refused = await applyHashlineEdit({ path: 'src/a.ts', edits: [{ target: b, new_content: ['const b = 20;'] }] }, host);
  assert.equal(refused.status, 'failed');
  assert.equal(refused.errorKind, 'stale-anchor');
  assert.equal(refused.stale.length, 1);
  assert.match(refused.message, />>> 2#/);
  assert.deepEqual(host.log, []);
  // The error shows where the line went: retry with that anchor.
  const moved = refused.message.match(/the line with ID \w+ is now (\d+#\w+)/)[1];
  assert.equal(moved, `3#${lineId('const b = 2;')}`);
  const ok = await applyHashlineEdit({ path: 'src/a.ts', edits: [{ target: moved, new_content: ['const b = 20;'] }] }, host);
  assert.equal(ok.status, 'applied', ok.message);
  assert.equal(files.get('src/a.ts'), '// header\nconst a = 1;\nconst b = 20;\nconst c = 3;\n');
  assert.ok(ok.message.includes(`3#${lineId('const b = 20;')}|const b = 20;`), ok.message);
});

test('rename with edits writes the new file before deleting the old one', async () => {
  const files = new Map([['old/name.ts', 'x\ny\n']]);
  const host = mapHost(files, { async: true });
  const result = await applyHashlineEdit(
    JSON.stringify({ path: './old//name.ts', rename: 'new/name.ts', edits: [{ after: `2#${lineId('y')}`, inserted_lines: ['z'] }] }),
    host,
  );
  assert.equal(result.status, 'applied', result.message);
  assert.deepEqual(host.log, [['write', 'new/name.ts'], ['delete', 'old/name.ts']]);
  assert.deepEqual(Object.fromEntries(files), { 'new/name.ts': 'x\ny\nz\n' });
  assert.deepEqual(result.filesCreated, ['new/name.ts']);
  assert.deepEqual(result.filesDeleted, ['old/name.ts']);
});

test('misuse becomes JS errors; refused paths are never read', async () => {
  const files = new Map([['a.txt', 'a\n']]);
  const { deleteFile, ...noDelete } = mapHost(files);
  assert.throws(() => applyHashlineEditSync({ path: 'a.txt', delete: true, edits: [] }, noDelete), /deleteFile/);
  await assert.rejects(applyHashlineEdit(null, mapHost(files)), TypeError);
  await assert.rejects(applyHashlineEdit({ path: 'a.txt', edits: [] }, mapHost(files), { width: 40 }), /width/);
  const reads = [];
  const spy = { readFile: (p) => { reads.push(p); return files.get(p); }, writeFile() {} };
  const r = applyHashlineEditSync({ path: '../secret', edits: [{ target: '1#abc', new_content: ['x'] }] }, spy);
  assert.equal(r.status, 'skipped');
  assert.equal(r.errorKind, 'path-escape');
  assert.deepEqual(reads, []);
  // A dry run validates without writing, and needs no deleteFile for a delete.
  const dry = applyHashlineEditSync({ path: 'a.txt', delete: true, edits: [] }, noDelete, { dryRun: true });
  assert.equal(dry.status, 'validated');
  assert.equal(files.get('a.txt'), 'a\n');
});

test('the system prompt carries real anchors and no placeholders', () => {
  const p = systemPrompt('hashline');
  assert.equal(p, hashlineSystemPrompt());
  assert.doesNotMatch(p, /\{\{|hlineref|hlinefull/);
  assert.ok(p.includes(`23#${lineId('  const timeout: number = 5000;')}|  const timeout: number = 5000;`));
  assert.ok(!p.includes('old_text'));
  const wide = hashlineSystemPrompt({ width: 4, allowReplaceText: true });
  assert.ok(wide.includes('old_text'));
  assert.ok(wide.includes(`23#${lineId('  const timeout: number = 5000;', { width: 4 })}|`));
});
