// diffBlock and the HTML renderers through the built package (pkg/node).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as eb from '../../pkg/node/index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Same reading of the fixtures as tests/all/diff.rs: one set of data for both layers. */
function readDiffFixture(file) {
  const text = fs.readFileSync(file, 'utf8');
  const sections = {};
  let current = null;
  for (const line of text.split('\n')) {
    if (/^=== (old|new|expected)$/.test(line)) {
      current = line.slice(4);
      sections[current] = [];
    } else if (current) sections[current].push(line);
  }
  const trim = (lines = []) => {
    while (lines.length && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  };
  return { old: trim(sections.old), new: trim(sections.new), expected: trim(sections.expected) };
}

const describe = (lines) =>
  lines
    .map((l) => {
      const sign = { context: ' ', removed: '-', added: '+' }[l.kind];
      const text = l.spans ? l.spans.map((s) => (s.changed ? `⟦${s.text}⟧` : s.text)).join('') : l.text;
      return `${sign} ${l.oldLine ?? '.'} ${l.newLine ?? '.'} | ${text}`;
    })
    .join('\n');

test('diffBlock matches every diff fixture (same data as the Rust tests)', () => {
  const dir = path.join(root, 'tests/fixtures/render/diff');
  const files = fs.readdirSync(dir).sort();
  assert.ok(files.length >= 10);
  for (const f of files) {
    const { old, new: neu, expected } = readDiffFixture(path.join(dir, f));
    assert.equal(describe(eb.diffBlock(old, neu)), expected, f);
  }
});

test('diffBlock lines are plain objects with the documented fields', () => {
  const [removed, added] = eb.diffBlock('a 👋🏽 b', 'a 👋🏿 b');
  assert.deepEqual(removed, {
    kind: 'removed', text: 'a 👋🏽 b', oldLine: 1, newLine: null,
    spans: [{ text: 'a ', changed: false }, { text: '👋🏽', changed: true }, { text: ' b', changed: false }],
  });
  assert.equal(added.kind, 'added');
  assert.equal(added.newLine, 1);
  assert.equal(added.oldLine, null);
});

test('spans slice lines in UTF-16 units correctly around astral characters and lone surrogates', () => {
  const lines = eb.diffBlock('𝒳 = "a\uD800b" + 1\r\nz', '𝒳 = "a\uD800c" + 2\nz\n');
  for (const l of lines) if (l.spans) assert.equal(l.spans.map((s) => s.text).join(''), l.text);
  assert.equal(lines.at(-1).kind, 'context');
  assert.equal(lines.at(-1).text, 'z');
});

test('diffBlock refuses what is not a string, naming the argument', () => {
  assert.throws(() => eb.diffBlock(undefined, 'x'), /diffBlock\(oldText, …\) must be a string, got undefined/);
  assert.throws(() => eb.diffBlock('x', 42), /diffBlock\(…, newText\) must be a string, got number/);
});

test('a 10,000-line worst case answers and covers every line', () => {
  const old = Array.from({ length: 10000 }, (_, i) => `left ${i} ${i * 3}`).join('\n');
  const neu = Array.from({ length: 10000 }, (_, i) => `${i * 7} right`).join('\n');
  const lines = eb.diffBlock(old, neu);
  assert.equal(lines.filter((l) => l.kind !== 'added').length, 10000);
  assert.equal(lines.filter((l) => l.kind !== 'removed').length, 10000);
});

const block = {
  format: 'edit-repl', filePath: 'src/app.js', anchor: 'function main() {', oldLines: '  run(1);', newLines: '  run(2);',
  trailingAnchor: '', rawBlock: '', lineNumber: 1,
};

test('renderEditBlock takes results as an array, an ApplyResult or one result', () => {
  const result = { blockIndex: 0, filePath: 'src/app.js', status: 'failed', errorKind: 'anchor-not-found', reason: 'No line matches.' };
  for (const results of [[result], { results: [result], filesModified: [] }, result]) {
    const html = eb.renderEditBlock(block, results);
    assert.match(html, /class="eb-block eb-status-failed"/);
    assert.match(html, /<div class="eb-reason" data-error-kind="anchor-not-found" role="note">/);
  }
  assert.match(eb.renderEditBlock(block), /eb-status-none/);
  assert.match(eb.renderEditBlock(block, [result, { ...result, blockIndex: 1, status: 'applied' }], { index: 1 }), /eb-status-applied/);
});

test('renderEditBlock explains misuse', () => {
  assert.throws(() => eb.renderEditBlock(null), /renderEditBlock needs an edit block object/);
  assert.throws(() => eb.renderEditBlock({ filePath: 'a' }), /invalid edit block.*format/);
  assert.throws(() => eb.renderEditBlock(block, 'x'), /takes an array of results/);
  assert.throws(() => eb.renderEditBlock(block, [], { index: -1 }), /options.index/);
});

test('renderInProgressEditBlock takes lines or a string', () => {
  const lines = ['««« EDIT', 'a', '═══════ REPL', 'a', 'b'];
  assert.equal(eb.renderInProgressEditBlock('f.txt', lines), eb.renderInProgressEditBlock('f.txt', lines.join('\n')));
  assert.match(eb.renderInProgressEditBlock('f.txt', []), /eb-cursor/);
  assert.throws(() => eb.renderInProgressEditBlock('f.txt', [1]), /array of strings/);
});

test('renderEditsSummary reads results or an ApplyResult; the retry note follows retryPrompt', () => {
  const results = [
    { blockIndex: 0, filePath: 'a.txt', status: 'applied' },
    { blockIndex: 1, filePath: 'b.txt', status: 'failed', errorKind: 'ambiguous', reason: 'Two matches.' },
  ];
  const fromResults = eb.renderEditsSummary(results);
  assert.match(fromResults, /data-applied="1" data-failed="1" data-skipped="0"/);
  assert.doesNotMatch(fromResults, /eb-retry-note/);
  const apply = { results, filesModified: ['a.txt'], filesCreated: [], filesAutoAdded: [], shellSuggestions: [], retryPrompt: 'Please retry…' };
  assert.match(eb.renderEditsSummary(apply), /eb-retry-note/);
  assert.match(eb.renderEditsSummary(results, { retryPromptPrepared: true, retryNote: 'See below.' }), /eb-retry-note">See below\.</);
  assert.throws(() => eb.renderEditsSummary(), /array of results or an apply result/);
});

test('renderInProgressEditBlock draws what EditStream.pending() returns', () => {
  // The shape parser.d.ts documents for PendingBlock.
  const pending = {
    filePath: 'src/a.py', format: 'edit-repl', lineNumber: 3,
    sections: [{ section: 'edit', lines: ['def f():', '    one()'] }, { section: 'repl', lines: ['def f():'] }],
    partialLine: '    tw',
  };
  const fromPending = eb.renderInProgressEditBlock(pending);
  assert.equal(fromPending, eb.renderInProgressEditBlock('src/a.py', ['def f():', '    one()', '═══════ REPL', 'def f():', '    tw']));
  assert.match(fromPending, /eb-line-context.*def f\(\):.*eb-line-removed.*one\(\).*eb-line-added.*    tw<span class="eb-cursor"/s);
  const anchored = eb.renderInProgressEditBlock({
    filePath: 'b.rs', sections: [{ section: 'anchor', lines: ['fn main() {'] }, { section: 'old', lines: ['    a();'] }, { section: 'new', lines: [] }],
    partialLine: '',
  });
  assert.match(anchored, /eb-line-context.*fn main.*eb-line-removed.*a\(\);/s);
  assert.throws(() => eb.renderInProgressEditBlock({ sections: [] }), /needs what EditStream.pending\(\) returned/);
});

test('a block streamed through EditStream draws in progress, then as the block it becomes', () => {
  const reply = 'Intro.\n\nsrc/a.py\n««« EDIT\ndef f():\n    one()\n═══════ REPL\ndef f():\n    two()\n»»» EDIT END\n';
  const stream = new eb.EditStream();
  const cut = reply.indexOf('    tw') + 6;
  stream.feed(reply.slice(0, cut));
  const pending = stream.pending();
  assert.equal(pending.filePath, 'src/a.py');
  const html = eb.renderInProgressEditBlock(pending);
  assert.match(html, /data-file-path="src\/a\.py"/);
  assert.match(html, /eb-line-context.*def f\(\):.*eb-line-removed.*    one\(\).*eb-line-added.*    tw<span class="eb-cursor"/s);
  const complete = [...stream.feed(reply.slice(cut)), ...stream.finish()].filter((e) => e.type === 'block-complete');
  assert.equal(complete.length, 1);
  const done = eb.renderEditBlock(complete[0].block);
  assert.match(done, /<span class="eb-text">    <span class="eb-change">two<\/span>\(\)<\/span>/);
});

// The rows (kind and text) a rendered block shows, for comparing views.
const rows = (html) => [...html.matchAll(/eb-line eb-line-(\w+)[^>]*>.*?<span class="eb-text">(.*?)(?:<span class="eb-cursor"[^>]*><\/span>)?<\/span><\/div>/g)].map((m) => `${m[1]}:${m[2]}`);

test('a streamed block never mistakes content that looks like a marker for one', () => {
  // Resolving a merge conflict in an edit-repl block: git's markers are old content.
  const reply = [
    'src/a.js',
    '««« EDIT',
    'function f() {',
    '<<<<<<< HEAD',
    '  return 1;',
    '>>>>>>> feature',
    '}',
    '═══════ REPL',
    'function f() {',
    '  return 2;',
    '}',
    '»»» EDIT END',
    '',
  ].join('\n');
  // Fed whole except the last marker, the pending view shows exactly the lines of the final block.
  const stream = new eb.EditStream();
  stream.feed(reply.slice(0, reply.indexOf('»»»')));
  const pending = stream.pending();
  const [block] = eb.parseEdits(reply);
  assert.equal(block.oldLines, '<<<<<<< HEAD\n  return 1;\n>>>>>>> feature\n}', 'the parser keeps the conflict lines as content');
  const streamed = rows(eb.renderInProgressEditBlock(pending)).map((r) => r.replace(/^old:/, 'removed:'));
  const final = rows(eb.renderEditBlock(block)).filter((r) => !r.startsWith('context:'));
  assert.ok(streamed.includes('removed:&lt;&lt;&lt;&lt;&lt;&lt;&lt; HEAD'), streamed.join('\n'));
  assert.ok(streamed.includes('added:  return 2;'), streamed.join('\n'));
  for (const r of final) assert.ok(streamed.includes(r) || streamed.includes(r.replace(/<span class="eb-change">|<\/span>/g, '')), `${r} is shown while streaming`);
  stream.finish();
});

test('renderEditsSummary refuses one result and names a bad field', () => {
  assert.throws(() => eb.renderEditsSummary({ status: 'failed', filePath: 'a.txt' }), /got one result; wrap it in an array/);
  assert.throws(() => eb.renderEditsSummary([{ status: 'failed', filePath: 'a.txt', estimatedLine: -1 }]), /result 0 \("a\.txt"\) has estimatedLine -1/);
  assert.throws(() => eb.renderEditBlock({ filePath: 'a', format: 'search-replace' }, [], { index: 2 ** 32 }), /from 0 to 4294967295\), got 4294967296/);
});

test('theme, layout and context are checked by name and value', () => {
  const block = { format: 'edit-repl', filePath: 'a.py', anchor: '', oldLines: 'x = 1', newLines: 'x = 2', trailingAnchor: '' };
  assert.throws(() => eb.renderEditBlock(block, undefined, { theme: 'blue' }), /renderEditBlock option theme must be one of "light", "dark", "auto", got "blue"/);
  assert.throws(() => eb.renderEditBlock(block, undefined, { layout: 'split' }), /option layout must be one of "line-by-line", "side-by-side"/);
  assert.throws(() => eb.renderFileChange({ path: 'a.py', before: 'x\n', after: 'y\n' }, { context: -1 }), /context must be a whole number of lines or 'all', got -1/);
  assert.throws(() => eb.renderEditsSummary([], { theme: 1 }), /theme must be one of/);
  assert.match(eb.renderInProgressEditBlock({ filePath: 'a.py', sections: [{ section: 'edit', lines: ['x'] }] }, { theme: 'dark' }), /^<div class="eb-block eb-block-pending eb-status-pending eb-dark"/);
  assert.match(eb.renderInProgressEditBlock('a.py', ['x'], { theme: 'light' }), /^<div class="eb-block eb-block-pending eb-status-pending eb-light"/);
  const big = Array.from({ length: 100 }, (_, i) => `l${i}`).join('\n') + '\n';
  const folded = eb.renderFileChange({ path: 'a.py', before: big, after: big.replace('l50\n', 'fifty\n') }, { context: 1 });
  assert.match(folded, />@@ -50,3 \+50,3 @@</);
  assert.equal(eb.renderFileChange({ path: 'a.py', before: big, after: big.replace('l50\n', 'fifty\n') }, { context: 'all' }).match(/eb-line eb-line-/g).length, 101);
});

test('diffBlock says deterministically when its work budget cut the diff short', () => {
  const normal = eb.diffBlock('let a = 1;\nkeep();\n', 'let b = 1;\nkeep();\n');
  assert.equal(normal.cutShort, false);
  assert.deepEqual(Object.keys(normal), ['0', '1', '2']);
  const old = Array.from({ length: 10000 }, (_, i) => `old line number ${i} with some words`).join('\n');
  const neu = Array.from({ length: 10000 }, (_, i) => `new text ${i * 7} in another shape`).join('\n');
  const first = eb.diffBlock(old, neu);
  assert.equal(first.cutShort, true);
  assert.equal(first.length, 20000);
  assert.deepEqual(eb.diffBlock(old, neu), first);
});
