// editblocks/lite (pkg/node/lite.*) against the full entry (pkg/node/index.*):
// the same inputs through both must give the same results (values, HTML,
// events, errors), for every function the lite entry has. Inputs are the
// parser, diff and HTML fixtures under tests/fixtures and the seeds in
// ../shared/seeds, the streams fed in random chunkings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as full from '../../pkg/node/index.mjs';
import * as lite from '../../pkg/node/lite.mjs';
import { mulberry32 } from './support/random.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

// What editblocks/lite is documented to hold (README, types/lite.d.ts).
const LITE_NAMES = [
  'EditStream', 'detectFormat', 'detectShellSuggestions', 'diffBlock', 'init', 'initSync',
  'parseEdits', 'renderEditBlock', 'renderEditsSummary', 'renderInProgressEditBlock',
];

const rng = mulberry32;

function chunks(text, random) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const n = 1 + Math.floor(random() * (random() < 0.2 ? 200 : 12));
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** The same call on both entries: equal results, or equal errors (class and message). */
function same(label, call) {
  let a;
  let b;
  let errA = null;
  let errB = null;
  try {
    a = call(full);
  } catch (e) {
    errA = e;
  }
  try {
    b = call(lite);
  } catch (e) {
    errB = e;
  }
  if (errA || errB) {
    assert.ok(errA && errB, `${label}: one entry threw and the other did not: ${errA?.message ?? errB?.message}`);
    assert.equal(errB.constructor.name, errA.constructor.name, `${label}: error class`);
    assert.equal(errB.message, errA.message, `${label}: error message`);
    return undefined;
  }
  assert.deepEqual(b, a, label);
  return a;
}

const replies = () => {
  const dir = path.join(root, 'tests/fixtures/parser');
  const seeds = path.join(root, '../shared/seeds');
  const found = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) found.push([`parser/${f}`, fs.readFileSync(path.join(dir, f), 'utf8')]);
  for (const f of fs.readdirSync(seeds).sort()) found.push([`seeds/${f}`, fs.readFileSync(path.join(seeds, f), 'utf8')]);
  assert.ok(found.length > 50, 'the parser fixtures and the shared seeds are there');
  return found;
};

test('editblocks/lite exports exactly its documented names, each the full entry\'s name with the same arity', () => {
  assert.deepEqual(Object.keys(lite).filter((k) => k !== 'default').sort(), LITE_NAMES);
  const cjs = require('../../pkg/node/lite.cjs');
  assert.deepEqual(Object.keys(cjs).sort(), LITE_NAMES);
  assert.equal(lite.default, cjs, 'import and require share one instance');
  for (const name of LITE_NAMES) {
    assert.equal(typeof lite[name], typeof full[name], name);
    assert.equal(lite[name].length, full[name].length, `${name}.length`);
  }
  // Node needs no init, as with the full entry.
  return lite.init();
});

test('parseEdits, detectFormat, diffBlock and renderEditBlock agree with the full entry on every fixture and seed', () => {
  for (const [name, text] of replies()) {
    const blocks = same(`parseEdits ${name}`, (eb) => eb.parseEdits(text));
    same(`detectFormat ${name}`, (eb) => eb.detectFormat(text));
    same(`detectShellSuggestions ${name}`, (eb) => eb.detectShellSuggestions(text));
    for (const formats of [['search-replace'], ['edit-repl', 'anchored'], ['apply-patch', 'unified-diff']]) {
      same(`parseEdits ${name} ${formats}`, (eb) => eb.parseEdits(text, { formats, knownFiles: ['src/a.py'] }));
    }
    blocks.forEach((block, i) => {
      same(`diffBlock ${name} #${i}`, (eb) => eb.diffBlock(block.oldLines, block.newLines));
      same(`renderEditBlock ${name} #${i}`, (eb) => eb.renderEditBlock(block));
      for (const status of ['applied', 'failed', 'skipped', 'validated', 'odd']) {
        const result = { blockIndex: i, filePath: block.filePath, status, estimatedLine: 3, errorKind: 'old-mismatch', reason: `<${status}> & "why"` };
        same(`renderEditBlock ${name} #${i} ${status}`, (eb) => eb.renderEditBlock(block, [result], { index: i }));
      }
    });
    same(`renderEditsSummary ${name}`, (eb) =>
      eb.renderEditsSummary(blocks.map((b, i) => ({ blockIndex: i, filePath: b.filePath, status: i % 2 ? 'failed' : 'applied', reason: 'r' }))));
  }
});

test('EditStream gives the same events, pending blocks and in-progress HTML in both entries, in any chunking', () => {
  const random = rng(14);
  for (const [name, text] of replies()) {
    for (let round = 0; round < 3; round++) {
      const parts = chunks(text, random);
      const a = new full.EditStream();
      const b = new lite.EditStream();
      parts.forEach((part, i) => {
        assert.deepEqual(b.feed(part), a.feed(part), `${name} round ${round} chunk ${i}`);
        if (i % 7 === 0) {
          assert.deepEqual(b.pending(), a.pending(), `${name} pending at chunk ${i}`);
          assert.deepEqual(b.pendingDelta(), a.pendingDelta(), `${name} pendingDelta at chunk ${i}`);
          assert.equal(lite.renderInProgressEditBlock(b), full.renderInProgressEditBlock(a), `${name} in-progress HTML at chunk ${i}`);
          const pending = a.pending();
          if (pending !== null) same(`${name} renderInProgressEditBlock(pending)`, (eb) => eb.renderInProgressEditBlock(pending));
        }
      });
      assert.deepEqual(b.finish(), a.finish(), `${name} finish`);
    }
  }
});

/** The HTML fixtures (tests/fixtures/render/html, read by tests/all/render.rs too). */
function htmlFixtures() {
  const dir = path.join(root, 'tests/fixtures/render/html');
  return fs.readdirSync(dir).sort().map((f) => {
    const sections = {};
    let current = null;
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const m = /^=== (\w+)$/.exec(line);
      if (m) sections[(current = m[1])] = [];
      else if (current) sections[current].push(line);
    }
    const text = (k) => sections[k].join('\n').replace(/\n+$/, '');
    return { name: f, kind: text('kind'), input: JSON.parse(text('input')), expected: text('expected') };
  });
}

test('the renderers give the HTML fixtures\' exact output in editblocks/lite, as in the full entry', () => {
  const fixtures = htmlFixtures();
  assert.ok(fixtures.length >= 10);
  for (const { name, kind, input, expected } of fixtures) {
    const html = same(name, (eb) => {
      if (kind === 'block') return eb.renderEditBlock(input.block, input.results, input.index === undefined ? undefined : { index: input.index });
      if (kind === 'in-progress') return eb.renderInProgressEditBlock(input.filePath, input.partialLines);
      if (kind === 'pending') return eb.renderInProgressEditBlock(input);
      if (kind === 'summary') return eb.renderEditsSummary(input.summary, input.options);
      throw new Error(`unknown fixture kind ${kind}`);
    });
    assert.equal(typeof html, 'string', `${name} renders`);
    assert.equal(html.replace(/\n/g, ''), expected.replace(/\n/g, ''), name);
  }
});

test('misuse throws the same errors in editblocks/lite as in the full entry', () => {
  const calls = [
    (eb) => eb.parseEdits(5),
    (eb) => eb.parseEdits('x', { formats: ['nope'] }),
    (eb) => eb.parseEdits('x', { knownFiles: 'a' }),
    (eb) => eb.detectFormat(null),
    (eb) => eb.diffBlock('a', 1),
    (eb) => eb.renderEditBlock(null),
    (eb) => eb.renderEditBlock({ filePath: 'a' }),
    (eb) => eb.renderEditBlock({ format: 'nope', filePath: 'a' }),
    (eb) => eb.renderEditBlock({ format: 'search-replace', filePath: 'a', lineNumber: 'x' }),
    (eb) => eb.renderEditBlock({ format: 'search-replace', filePath: 'a' }, 5),
    (eb) => eb.renderEditBlock({ format: 'search-replace', filePath: 'a' }, [], { index: -1 }),
    (eb) => eb.renderEditBlock({ format: 'search-replace', filePath: 'a' }, [{ status: 3 }]),
    (eb) => eb.renderInProgressEditBlock(3),
    (eb) => eb.renderInProgressEditBlock({ filePath: 'a' }),
    (eb) => eb.renderInProgressEditBlock({ filePath: 'a', sections: [{ section: 1, lines: [] }] }),
    (eb) => eb.renderEditsSummary(null),
    (eb) => eb.renderEditsSummary({ status: 'applied' }),
    (eb) => eb.renderEditsSummary([{ filePath: 'a', status: 'applied', estimatedLine: 0 }]),
    (eb) => eb.renderEditsSummary({ results: [], filesModified: 'x' }),
    (eb) => eb.renderEditsSummary([], { retryNote: 3 }),
    (eb) => eb.detectShellSuggestions(undefined),
    (eb) => new eb.EditStream({ formats: 'x' }),
    (eb) => {
      const s = new eb.EditStream();
      s.finish();
      return s.feed('x');
    },
    (eb) => {
      const s = new eb.EditStream();
      s.free();
      return s.pending();
    },
  ];
  let threw = 0;
  calls.forEach((call, i) => {
    same(`misuse #${i}: ${call}`, (eb) => {
      try {
        return call(eb);
      } catch (e) {
        threw++;
        throw e;
      }
    });
  });
  assert.ok(threw >= 2 * 20, `most of these calls are refused (${threw / 2} were)`);
});

test('editblocks/lite refuses the live preview by name, and leaves out what it does not bind', () => {
  assert.throws(() => new lite.EditStream({ preview: { files: {} } }), { name: 'TypeError', message: /editblocks\/lite has no live preview \(EditStream options\.preview\); import from 'editblocks'/ });
  const s = new lite.EditStream();
  s.feed('a.txt\n<<<<<<< SEARCH\nx\n');
  assert.throws(() => lite.renderInProgressEditBlock(s, { incremental: true }), /editblocks\/lite has no live preview \(renderInProgressEditBlock\(stream, \{ incremental: true \}\)\)/);
  // The stream is still usable after the refusal.
  assert.match(lite.renderInProgressEditBlock(s), /eb-block-pending/);
  s.free();
  for (const name of ['applyEdits', 'applyToolCalls', 'systemPrompt', 'toolSchemas', 'EditPreview', 'nodeHost', 'formatHashlines']) {
    assert.equal(lite[name], undefined, `${name} is not in editblocks/lite`);
    assert.equal(typeof full[name], 'function', `${name} is in the full entry`);
  }
});

test('the lite wasm module is a separate, smaller file than the full one', () => {
  const web = path.join(root, 'pkg/web');
  const liteBytes = fs.statSync(path.join(web, 'editblocks_lite_bg.wasm')).size;
  const fullBytes = fs.statSync(path.join(web, 'editblocks_bg.wasm')).size;
  assert.ok(liteBytes < fullBytes / 2, `lite ${liteBytes} bytes vs full ${fullBytes}`);
});

test('the renderers refuse a field of the wrong type by name, quoting a string value (both entries read arguments alike)', () => {
  for (const eb of [full, lite]) {
    assert.throws(() => eb.renderEditBlock({ format: 'nope', filePath: 'a' }), {
      message: "editblocks: invalid edit block (renderEditBlock's first argument): `format` must be 'edit-repl', 'anchored', 'search-replace', 'apply-patch' or 'unified-diff', got the string \"nope\"",
    });
    assert.throws(() => eb.renderEditBlock({ format: 'search-replace', filePath: 'a', lineNumber: 'x'.repeat(50) }), {
      message: `editblocks: invalid edit block (renderEditBlock's first argument): \`lineNumber\` must be a whole number from 0 to 4294967295, got the string "${'x'.repeat(40)}…"`,
    });
    assert.throws(() => eb.renderInProgressEditBlock({ filePath: 'a', sections: [{ section: 'old' }] }), /pending\.sections .*\[0\]: missing field `lines`/);
    assert.throws(() => eb.renderEditsSummary({ results: [{ filePath: 'a', status: 'applied', blockIndex: 1.5 }] }), /`results`\[0\]: `blockIndex` must be a whole number from 0 to 4294967295, got a number/);
    // A field set to null reads as absent, as a missing one does.
    assert.match(eb.renderEditBlock({ format: 'search-replace', filePath: 'a', oldLines: 'x', newLines: null, lineHint: null }), /eb-block/);
  }
});

// editblocks/lite has no grapheme tables: its intra-line diff asks the
// host's Intl.Segmenter (bindings/wasm/src/wasm/render.rs). Its spans must be the full
// module's (unicode-segmentation) on every pair and random mix.
const graphemePairs = () =>
  JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/render/graphemes/pairs.json'), 'utf8'));

test('intra-line diffs of non-ASCII lines cut at the same graphemes in editblocks/lite as in the full entry', () => {
  const pairs = graphemePairs();
  assert.ok(pairs.length >= 20);
  for (const [old, now] of pairs) {
    const diff = same(`diffBlock ${JSON.stringify(old)}`, (eb) => eb.diffBlock(old, now));
    assert.ok(diff.some((l) => l.spans), `${JSON.stringify(old)} is diffed inside the line`);
    same(`renderEditBlock ${JSON.stringify(old)}`, (eb) =>
      eb.renderEditBlock({ format: 'search-replace', filePath: 'a.txt', oldLines: old, newLines: now }));
  }
  const changed = (old, now) =>
    lite.diffBlock(old, now).find((l) => l.kind === 'added').spans.filter((s) => s.changed).map((s) => s.text);
  // Whole clusters, never a piece of one.
  assert.deepEqual(changed('family 👩‍👩‍👧 here', 'family 👩‍👩‍👦 here'), ['👩‍👩‍👦']);
  assert.deepEqual(changed('wave 👋🏻 hi', 'wave 👋🏿 hi'), ['👋🏿']);
  assert.deepEqual(changed('flags 🇫🇷🇩🇪 end', 'flags 🇫🇷🇮🇹 end'), ['🇮🇹']);
  assert.deepEqual(changed('cafe\u0301 au lait', 'cafe\u0300 au lait'), ['cafe\u0300']);
});

test('random mixes of combining marks, joiners, emoji, flags, jamo and scripts diff alike in both entries', () => {
  const random = rng(1414);
  const pool = ['a', 'b', 'é', 'e', '\u0301', '\u0323', '\u200d', '\ufe0f', '👩', '👧', '🏽', '🇫', '🇷', '🇩', '🇪',
    '\u1100', '\u1161', '\u11a8', '한', 'क', '\u094d', 'ष', '\u093f', '\u0903', 'ไ', 'ท', '\u0e48', '中', '文',
    'ا', 'ل', '\u0600', '1', '\u20e3', ' ', '_', '-', '\t', '\u0007', '𝒳'];
  const word = (n) => Array.from({ length: n }, () => pool[Math.floor(random() * pool.length)]).join('');
  for (let i = 0; i < 400; i++) {
    const old = word(1 + Math.floor(random() * 14));
    const cut = Math.floor(random() * old.length);
    const now = random() < 0.5 ? old.slice(0, cut) + word(1 + Math.floor(random() * 3)) + old.slice(cut) : old + word(2);
    same(`diffBlock ${JSON.stringify(old)} -> ${JSON.stringify(now)}`, (eb) => eb.diffBlock(`x\n${old}\ny`, `x\n${now}\ny`));
  }
});
