// applyEdits / applyEditsSync / applyToContent / validateEdit through the
// built package, with in-memory hosts: a sync one, and an async one that
// returns a Promise from every call, as a VS Code web extension's
// workspace.fs does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, applyEditsSync, applyToContent, validateEdit } from '../../pkg/node/index.mjs';

const block = (filePath, anchor, oldLines, newLines, format = 'edit-repl', trailingAnchor = '') => ({
  format, filePath, anchor, oldLines, newLines, trailingAnchor, rawBlock: '', lineNumber: 1,
});

const MATH = 'def add(a, b):\n    return a + b\n\ndef multiply(a, b):\n    return a + b  # BUG\n';
const FIX = block('src/math.py', 'def multiply(a, b):', '    return a + b  # BUG', '    return a * b');

function memoryHost(files) {
  const store = new Map(Object.entries(files));
  const log = [];
  return {
    store, log,
    readFile(p) { log.push(['read', p]); return store.has(p) ? store.get(p) : null; },
    writeFile(p, c) { log.push(['write', p]); store.set(p, c); },
    stage(paths) { log.push(['stage', ...paths]); },
  };
}

// Every method returns a Promise that resolves on a later tick, like vscode.workspace.fs.
function asyncHost(files) {
  const store = new Map(Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t)]));
  const log = [];
  const later = (v) => new Promise((resolve) => setTimeout(() => resolve(v), 1));
  return {
    store, log,
    async readFile(p) { log.push(['read', p]); await later(); if (!store.has(p)) return undefined; return store.get(p); },
    async writeFile(p, c) { await later(); log.push(['write', p]); store.set(p, new TextEncoder().encode(c)); },
    async stage(paths) { await later(); log.push(['stage', ...paths]); },
  };
}
const text = (host, p) => new TextDecoder().decode(host.store.get(p));

test('applyEditsSync applies blocks and stages what it wrote', () => {
  const host = memoryHost({ 'src/math.py': MATH });
  const result = applyEditsSync([FIX, block('src/new.py', '', '', 'x = 1')], host);
  assert.deepEqual(result.results.map((r) => r.status), ['applied', 'applied']);
  assert.equal(result.results[0].estimatedLine, 4);
  assert.equal(result.results[0].matchedBy, 'exact');
  assert.equal(host.store.get('src/math.py'), MATH.replace('a + b  # BUG', 'a * b'));
  assert.equal(host.store.get('src/new.py'), 'x = 1\n');
  assert.deepEqual(result.filesModified, ['src/math.py']);
  assert.deepEqual(result.filesCreated, ['src/new.py']);
  assert.deepEqual(host.log.at(-1), ['stage', 'src/math.py', 'src/new.py']);
  assert.equal(result.retryPrompt, null);
});

test('applyEdits drives a host that returns Promises from every call', async () => {
  const host = asyncHost({ 'src/math.py': MATH, 'src/dup.py': 'x = 1\ny = 2\nx = 1\n' });
  const result = await applyEdits([FIX, block('src/dup.py', '', 'x = 1', 'x = 3')], host);
  assert.equal(result.results[0].status, 'applied');
  assert.equal(result.results[1].status, 'failed');
  assert.equal(result.results[1].errorKind, 'ambiguous');
  assert.match(result.results[1].reason, /^Edit location is ambiguous \(matches at lines 1 and 3\)\./);
  assert.deepEqual(result.results[1].diagnostics.matchLines, [1, 3]);
  assert.match(result.retryPrompt, /- src\/dup\.py \(2 matches\): /);
  assert.equal(text(host, 'src/math.py'), MATH.replace('a + b  # BUG', 'a * b'));
  assert.equal(text(host, 'src/dup.py'), 'x = 1\ny = 2\nx = 1\n', 'the failed file is untouched');
  assert.deepEqual(host.log.filter((e) => e[0] !== 'read'), [['write', 'src/math.py'], ['stage', 'src/math.py']]);
});

test('a refused path is never read, by the sync or the async driver', async () => {
  for (const run of [(b, h) => applyEditsSync(b, h), (b, h) => applyEdits(b, h)]) {
    const host = memoryHost({ 'src/math.py': MATH });
    const result = await run([block('../etc/passwd', '', 'root', 'x'), block('/abs.txt', '', '', 'x'), FIX], host);
    assert.deepEqual(result.results.map((r) => [r.status, r.errorKind]), [['skipped', 'path-escape'], ['skipped', 'path-escape'], ['applied', undefined]]);
    assert.deepEqual(host.log.filter((e) => e[0] === 'read'), [['read', 'src/math.py']]);
  }
});

test('dry run validates and writes nothing', async () => {
  const host = asyncHost({ 'src/math.py': MATH });
  const result = await applyEdits([FIX], host, { dryRun: true });
  assert.equal(result.results[0].status, 'validated');
  assert.deepEqual(host.log.filter((e) => e[0] !== 'read'), []);
});

test('atomic mode writes nothing when one edit fails', () => {
  const host = memoryHost({ 'src/math.py': MATH, 'b.txt': 'b\n' });
  const result = applyEditsSync([FIX, block('b.txt', '', 'nope', 'x')], host, { mode: 'atomic' });
  assert.deepEqual(result.results.map((r) => r.errorKind), ['atomic-aborted', 'old-mismatch']);
  assert.equal(host.store.get('src/math.py'), MATH);
  assert.deepEqual(host.log.filter((e) => e[0] !== 'read'), []);
});

test('inContext: other files are not attempted and listed in filesAutoAdded; creates go on', () => {
  const host = memoryHost({ 'src/math.py': MATH, 'src/other.py': 'a\n' });
  const result = applyEditsSync([block('src/other.py', '', 'a', 'b'), FIX, block('src/new.py', '', '', 'n')], host, { inContext: ['src/math.py'] });
  assert.deepEqual(result.results.map((r) => r.status), ['not-in-context', 'applied', 'applied']);
  assert.deepEqual(result.filesAutoAdded, ['src/other.py']);
  assert.ok(!host.log.some((e) => e[0] === 'read' && e[1] === 'src/other.py'));
});

test('bytes, CRLF and BOM survive; binary files are refused', () => {
  const host = memoryHost({ 'w.txt': new TextEncoder().encode('\ufeffa\r\nb\r\n'), 'x.bin': new Uint8Array([97, 0, 98]) });
  const result = applyEditsSync([block('w.txt', 'a', 'b', 'c'), block('x.bin', '', 'a', 'b')], host);
  assert.equal(host.store.get('w.txt'), '\ufeffa\r\nc\r\n');
  assert.equal(result.results[1].errorKind, 'binary');
  assert.deepEqual([...host.store.get('x.bin')], [97, 0, 98]);
});

test('a host read error becomes a failed edit, not an exception', async () => {
  const host = { readFile: async () => { throw new Error('EACCES: permission denied'); }, writeFile() {} };
  const result = await applyEdits([FIX], host);
  assert.equal(result.results[0].errorKind, 'host-error');
  assert.match(result.results[0].reason, /Could not read src\/math\.py: EACCES/);
});

test('misuse is a JS error naming the problem', async () => {
  assert.throws(() => applyEditsSync(42, memoryHost({})), /reply \(string\) or an array of EditBlock/);
  assert.throws(() => applyEditsSync([{ filePath: 'a' }], memoryHost({})), { name: 'TypeError', message: /applyEditsSync: blocks\[0\]\.format must be one of "edit-repl", .*got none/ });
  assert.throws(() => applyEditsSync([FIX], memoryHost({}), { dryrun: true }), /unknown option "dryrun" for applyEdits/);
  assert.throws(() => applyEditsSync([FIX], { readFile() {} }), /readFile\(path\) and writeFile/);
  assert.throws(() => applyEditsSync([FIX], asyncHost({ 'src/math.py': MATH })), /returned a Promise; use the async function/);
});

test('blocks read as JSON or as objects give one answer: NaN and Infinity are refused, not read as null', () => {
  // The blocks cross as JSON text when they can; JSON would spell NaN as
  // null, which an optional number (lineHint) accepts. So these must still
  // be refused as the objects are.
  for (const bad of [NaN, Infinity, -Infinity]) {
    const host = memoryHost({ 'src/math.py': MATH });
    assert.throws(() => applyEditsSync([{ ...FIX, lineHint: bad }], host), /invalid edit blocks.*lineHint|invalid edit blocks/);
    assert.equal(host.store.get('src/math.py'), MATH);
  }
  const withNull = memoryHost({ 'src/math.py': MATH });
  assert.equal(applyEditsSync([{ ...FIX, lineHint: null }], withNull).results[0].status, 'applied');
  // A field JSON reads but the block type does not (a string for a number)
  // is refused with the objects' message.
  assert.throws(() => applyEditsSync([{ ...FIX, lineNumber: '3' }], memoryHost({})), { name: 'TypeError', message: /applyEditsSync: blocks\[0\]\.lineNumber must be a whole number from 0 to 4294967295, got "3"$/ });
  // A lone surrogate (JSON escapes it; the core's JSON reader refuses it)
  // is read as the objects are.
  const lone = { ...FIX, rawBlock: 'x\uD800y' };
  const a = memoryHost({ 'src/math.py': MATH });
  assert.equal(applyEditsSync([lone], a).results[0].status, 'applied');
  assert.equal(a.store.get('src/math.py'), MATH.replace('return a + b  # BUG', 'return a * b'));
});

test('applyToContent and validateEdit work on strings', () => {
  const { content, result } = applyToContent(FIX, MATH);
  assert.equal(result.status, 'applied');
  assert.equal(content, MATH.replace('a + b  # BUG', 'a * b'));
  const failed = applyToContent(block('m.py', 'def nope():', '', 'x'), MATH);
  assert.equal(failed.content, MATH);
  assert.equal(failed.result.errorKind, 'anchor-not-found');
  const v = validateEdit(block('m.go', 'func main() {', '    fmt.Println(1)', 'x'), 'func main() {\n\tfmt.Println(1)\n}\n');
  assert.equal(v.ok, false);
  assert.equal(v.errorKind, 'old-mismatch');
  assert.equal(v.estimatedLine, 2);
  assert.match(v.diagnostics.whitespace, /^tabs vs spaces: line 2 of the file indents with tabs, the edit with spaces/);
  assert.equal(v.diagnostics.nearest[0].line, 2);
  assert.deepEqual(validateEdit(FIX, MATH), { ok: true, estimatedLine: 4, matchedBy: 'exact' });
});

test('options: undefined means not given; a snake_case name is refused with its camelCase; wrong types are named', () => {
  const host = { files: new Map([['a.txt', 'one\n']]), readFile(p) { return this.files.get(p) ?? null; }, writeFile(p, c) { this.files.set(p, c); } };
  const reply = 'a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n';
  assert.throws(() => applyEditsSync(reply, host, { dry_run: true }), /unknown option "dry_run" for applyEdits; did you mean dryRun\?/);
  assert.equal(host.files.get('a.txt'), 'one\n', 'the misspelt dry run wrote nothing');
  assert.throws(() => applyEditsSync(reply, host, { inContext: 'a.txt' }), /applyEdits option inContext must be an array of strings, got "a\.txt"/);
  const result = applyEditsSync(reply, host, { mode: undefined, dryRun: undefined });
  assert.equal(result.results[0].status, 'applied');
});

// The core sends each result as numbers and one text of strings
// (src/result.rs `result_words`); the driver builds it back.
test('each result crosses with every field it has, keys in the core order, its text intact', async () => {
  const KEYS = ['blockIndex', 'path', 'status', 'errorKind', 'reason', 'estimatedLine', 'anchorPreview', 'oldPreview', 'newPreview', 'diagnostics', 'matchedBy', 'assumed'];
  const files = { 'src/ü.py': 'é = 1\n😀 = 2\n', 'src/dup.py': 'x = 1\ny = 2\nx = 1\n', 'src/math.py': MATH };
  const odd = '😀 = "\u2028\t\\"x\\"\u{feff}"';
  const blocks = [
    block('src/ü.py', 'é = 1', '😀 = 2', odd),
    block('src/dup.py', '', 'x = 1', 'x = 3'),
    block('../up', '', '', 'x'),
    FIX,
    block('src/new.txt', '', '', ''),
  ];
  for (const run of [(h) => applyEditsSync(blocks, h), (h) => applyEdits(blocks, h)]) {
    const { results } = await run(memoryHost(files));
    assert.deepEqual(results.map((r) => r.blockIndex), [0, 1, 2, 3, 4]);
    for (const r of results) {
      const keys = Object.keys(r);
      assert.deepEqual(keys, KEYS.filter((k) => keys.includes(k)), `${r.path}: keys in the core's order`);
      for (const k of ['reason', 'matchedBy']) assert.ok(!(k in r) || typeof r[k] === 'string', k);
    }
    const [emoji, dup, up, fix] = results;
    assert.equal(emoji.path, 'src/ü.py');
    assert.equal(emoji.status, 'applied');
    assert.deepEqual([emoji.anchorPreview, emoji.oldPreview, emoji.newPreview], ['é = 1', '😀 = 2', odd]);
    assert.equal(emoji.estimatedLine, 1, 'the line of its anchor');
    assert.equal(emoji.matchedBy, 'exact');
    assert.deepEqual([dup.status, dup.errorKind], ['failed', 'ambiguous']);
    assert.match(dup.reason, /^Edit location is ambiguous \(matches at lines 1 and 3\)\./);
    assert.deepEqual(dup.diagnostics.matchLines, [1, 3]);
    assert.deepEqual(Object.keys(dup.diagnostics), ['failedPart', 'nearest', 'matchCount', 'matchLines'].filter((k) => k in dup.diagnostics));
    assert.deepEqual([up.path, up.status, up.errorKind], ['../up', 'skipped', 'path-escape']);
    assert.equal(up.newPreview, 'x');
    assert.deepEqual([fix.status, fix.matchedBy, fix.anchorPreview], ['applied', 'exact', 'def multiply(a, b):']);
    assert.deepEqual(results[4].anchorPreview, '');
  }
});

// A reply is read to be applied as parseEdits reads it with the same known
// files: the option, or the host's listFiles() when the option is not given.
// A block dropped while the reply was read is listed with its reason.
test('applyEdits reads a block for a known file without extension, from knownFiles or host.listFiles()', async () => {
  const reply = 'Optimise the build.\n\nbuildscript\n<<<<<<< SEARCH\ncc -o app\n=======\ncc -O2 -o app\n>>>>>>> REPLACE\n';
  for (const how of ['option', 'listFiles', 'async listFiles']) {
    const host = how === 'async listFiles' ? asyncHost({ buildscript: 'cc -o app\n' }) : memoryHost({ buildscript: 'cc -o app\n' });
    if (how === 'listFiles') host.listFiles = () => ['buildscript'];
    if (how === 'async listFiles') host.listFiles = async () => ['buildscript'];
    const options = how === 'option' ? { knownFiles: ['buildscript'] } : undefined;
    const r = how === 'listFiles' ? applyEditsSync(reply, host, options) : await applyEdits(reply, host, options);
    assert.deepEqual(r.results.map((x) => [x.path, x.status]), [['buildscript', 'applied']], how);
    assert.equal(r.discarded, undefined, how);
    const after = how === 'async listFiles' ? text(host, 'buildscript') : host.store.get('buildscript');
    assert.equal(after, 'cc -O2 -o app\n', how);
  }
  // Without them the line is no path: the block is listed as discarded, saying why.
  const host = memoryHost({ buildscript: 'cc -o app\n' });
  const r = applyEditsSync(reply, host);
  assert.deepEqual(r.results, []);
  assert.equal(r.discarded.length, 1);
  assert.equal(r.discarded[0].lineNumber, 3);
  assert.match(r.discarded[0].reason, /line 3 "buildscript" before `<<<<<<< SEARCH` is not a file path/);
  assert.equal(host.store.get('buildscript'), 'cc -o app\n');
});

test('a block the reply cuts short is listed in discarded with its path, line and reason', async () => {
  const reply = 'a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n';
  const host = memoryHost({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  const r = await applyEdits(reply, host);
  assert.deepEqual(r.results.map((x) => [x.path, x.status]), [['a.txt', 'applied']]);
  assert.deepEqual(r.discarded, [{ lineNumber: 8, path: 'b.txt', reason: 'block for b.txt at line 8 was dropped: the reply ended before the block was closed: `>>>>>>> REPLACE` is missing' }]);
  assert.equal(host.store.get('b.txt'), 'two\n');
});
