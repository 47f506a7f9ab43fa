// The parser through the built package (node --test tests/js/parser.test.mjs
// after node scripts/build.mjs): every fixture through parseEdits and
// through EditStream fed one UTF-16 unit at a time and in random chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEdits, detectFormat, EditStream, systemPrompt } from '../../pkg/node/index.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'parser');
const fixtures = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => ({
    name: f,
    reply: fs.readFileSync(path.join(dir, f), 'utf8'),
    expected: JSON.parse(fs.readFileSync(path.join(dir, f.replace(/\.md$/, '.json')), 'utf8')),
  }));

function stream(chunks, options) {
  const s = new EditStream(options);
  const events = [];
  for (const c of chunks) events.push(...s.feed(c));
  events.push(...s.finish());
  return {
    blocks: events.filter((e) => e.type === 'block-complete').map((e) => e.block),
    discarded: events.filter((e) => e.type === 'block-discarded').map(({ type, ...rest }) => rest),
    events,
  };
}

// Deterministic random split points, in UTF-16 units (so pairs get split too).
function chunks(text, seed, max) {
  let x = seed >>> 0 || 1;
  const out = [];
  for (let i = 0; i < text.length; ) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    const n = 1 + (x % max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

test('fixtures: parseEdits gives the expected blocks', () => {
  assert.ok(fixtures.length >= 25);
  for (const f of fixtures) {
    const options = f.expected.formats ? { formats: f.expected.formats } : undefined;
    assert.deepEqual(parseEdits(f.reply, options), f.expected.blocks, f.name);
  }
});

test('fixtures: EditStream one UTF-16 unit at a time and in random chunks gives the same blocks and discards', () => {
  for (const f of fixtures) {
    const options = f.expected.formats ? { formats: f.expected.formats } : undefined;
    const one = stream(f.reply.split(''), options);
    assert.deepEqual(one.blocks, f.expected.blocks, `${f.name}: one unit at a time`);
    assert.deepEqual(one.discarded, f.expected.discarded, `${f.name}: discards`);
    for (let seed = 1; seed <= 20; seed++) {
      assert.deepEqual(stream(chunks(f.reply, seed, 9), options).blocks, f.expected.blocks, `${f.name}: seed ${seed}`);
    }
  }
});

const unicodeReply = [
  'Voilà — the 🎉 fix, 日本語 too:',
  '',
  'src/héllo 🌍.md',
  '<<<<<<< SEARCH',
  'Bonjour 👋🏽 le monde',
  '=======',
  'Salut 👨‍👩‍👧 le monde 𝄞',
  '>>>>>>> REPLACE',
  'src/🎉.txt',
  '««« EDIT',
  '═══════ REPL',
  'new 😀',
  '»»» EDIT END',
  '',
].join('\n');

test('astral characters split between chunks give the same blocks', () => {
  const whole = parseEdits(unicodeReply);
  assert.equal(whole.length, 2);
  assert.equal(whole[0].filePath, 'src/héllo 🌍.md');
  assert.equal(whole[0].newLines, 'Salut 👨‍👩‍👧 le monde 𝄞');
  assert.equal(whole[1].newLines, 'new 😀');
  assert.deepEqual(stream(unicodeReply.split('')).blocks, whole);
  for (let seed = 1; seed <= 50; seed++) assert.deepEqual(stream(chunks(unicodeReply, seed, 5)).blocks, whole);
});

test('lone surrogates read as U+FFFD both ways', () => {
  const text = 'a.txt\n<<<<<<< SEARCH\nx\ud800y\n=======\n\udc00\n>>>>>>> REPLACE\n\ud83d';
  const whole = parseEdits(text);
  assert.equal(whole[0].oldLines, 'x\ufffdy');
  assert.equal(whole[0].newLines, '\ufffd');
  assert.deepEqual(stream(text.split('')).blocks, whole);
});

test('CRLF is read as LF, also when CR and LF arrive in different chunks', () => {
  const text = 'a.py\r\n<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r';
  const whole = parseEdits(text);
  assert.deepEqual(whole, [{ format: 'search-replace', filePath: 'a.py', anchor: '', oldLines: 'x', newLines: 'y', trailingAnchor: '', rawBlock: 'a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE', lineNumber: 1 }]);
  assert.deepEqual(stream(text.split('')).blocks, whole);
});

test('events: start, updates carrying only new lines, complete; pending shows the block so far', () => {
  const s = new EditStream();
  assert.deepEqual(s.feed('src/a.py\n««« EDIT\nlead\n'), [
    { type: 'block-start', filePath: 'src/a.py', lineNumber: 1 },
    { type: 'block-update', section: 'edit', lines: ['lead'] },
  ]);
  assert.deepEqual(s.feed('───────\nold\n═══'), [
    { type: 'block-update', format: 'anchored', section: 'old', lines: ['old'] },
  ]);
  const p = s.pending();
  assert.equal(p.format, 'anchored');
  assert.deepEqual(p.sections, [{ section: 'anchor', lines: ['lead'] }, { section: 'old', lines: ['old'] }]);
  assert.equal(p.partialLine, '═══');
  const rest = s.feed('════\nnew\n───────\n»»»\n');
  assert.equal(rest.at(-1).type, 'block-complete');
  assert.equal(rest.at(-1).block.newLines, 'new');
  assert.equal(s.pending(), null);
  assert.deepEqual(s.finish(), []);
});

test('an unclosed block is discarded at finish with a reason', () => {
  const s = new EditStream();
  s.feed('src/a.py\n<<<<<<< SEARCH\nx\n');
  const [e] = s.finish();
  assert.equal(e.type, 'block-discarded');
  assert.equal(e.filePath, 'src/a.py');
  assert.match(e.reason, /ended before the block was closed: `=======` is missing/);
});

test('detectFormat', () => {
  assert.equal(detectFormat('a\n««« EDIT\nx\n═══════ REPL\n'), 'edit-repl');
  assert.equal(detectFormat('a\n««« EDIT\nx\n───────\n'), 'anchored');
  assert.equal(detectFormat('a\n<<<<<<< SEARCH\n'), 'search-replace');
  assert.equal(detectFormat('no blocks here ««« EDIT'), 'none');
});

test('misuse becomes a JS error naming the problem', () => {
  assert.throws(() => parseEdits(42), /parseEdits expects a string/);
  assert.throws(() => parseEdits('x', { formats: ['unified'] }), /does not know the format "unified"/);
  const s = new EditStream();
  s.finish();
  assert.throws(() => s.feed('x'), /after finish/);
});

test('system prompts parse in their own format', () => {
  for (const f of ['edit-repl', 'anchored', 'search-replace']) {
    const blocks = parseEdits(systemPrompt(f), { formats: [f] });
    assert.ok(blocks.length >= 3 && blocks.every((b) => b.format === f), f);
  }
});

test('bad input neither throws nor hangs', () => {
  const huge = 'x'.repeat(5_000_000);
  assert.deepEqual(parseEdits(huge), []);
  assert.deepEqual(parseEdits('««« EDIT'), []);
  assert.deepEqual(parseEdits('\n'.repeat(100000) + '<<<<<<< SEARCH'), []);
  const s = new EditStream();
  for (let i = 0; i < 1000; i++) s.feed('y'.repeat(1000));
  assert.deepEqual(s.finish(), []);
});

test('knownFiles makes an extensionless name a path; what was assumed is named', () => {
  const reply = 'VERSIONS\n<<<<<<< SEARCH>\na\n=======\nb\n>>>>>>> REPLACE\n';
  assert.deepEqual(parseEdits(reply), []);
  const [block] = parseEdits(reply, { knownFiles: ['VERSIONS'] });
  assert.equal(block.filePath, 'VERSIONS');
  assert.deepEqual(block.assumed, ['marker-repaired']);
  const stream = new EditStream({ knownFiles: ['VERSIONS'] });
  const events = [...stream.feed(reply.slice(0, 12)), ...stream.feed(reply.slice(12)), ...stream.finish()];
  assert.deepEqual(events.find((e) => e.type === 'block-complete').block, block);
  assert.throws(() => parseEdits(reply, { knownFiles: 'VERSIONS' }), /knownFiles must be an array/);
});

test('EditStream.free() releases a cancelled stream; a freed stream says so when used', () => {
  const stream = new EditStream();
  stream.feed('src/a.py\n««« EDIT\nx = 1\n');
  assert.equal(stream.pending().filePath, 'src/a.py');
  stream.free();
  stream.free(); // twice is harmless
  for (const [method, call] of [['feed', () => stream.feed('more\n')], ['pending', () => stream.pending()], ['finish', () => stream.finish()]]) {
    assert.throws(call, { message: `editblocks: EditStream.${method}() called after free(); the stream's memory was released, create a new EditStream` });
  }
  // After finish() the memory is already released: free() is a no-op, and finish() stays idempotent.
  const done = new EditStream();
  done.feed('a\n');
  done.finish();
  done.free();
  assert.deepEqual(done.finish(), []);
  assert.equal(done.pending(), null);
});

test('EditStream is disposable: a `using` scope frees it', () => {
  assert.equal(typeof Symbol.dispose, 'symbol');
  const stream = new EditStream();
  stream.feed('src/a.py\n««« EDIT\n');
  stream[Symbol.dispose]();
  assert.throws(() => stream.feed('x\n'), /called after free\(\)/);
});
