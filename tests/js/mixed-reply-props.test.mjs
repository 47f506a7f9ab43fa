// Property test through the package: replies that interleave text blocks of
// every text format, multi-operation apply-patch patches and multi-file
// unified diffs. For each, parseEdits, EditStream in random chunkings and the
// results of applyEdits agree on the blocks and their order, and that order
// is the reply's (each block's path line after the previous one's).
// Seeded: a failure names the seed and the reply; EDITBLOCKS_PROP_SCALE
// multiplies the number of cases (tests/prop_support's convention).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEdits, EditStream, applyEditsSync } from '../../pkg/node/index.mjs';
import { mulberry32 } from './support/random.mjs';

const SCALE = Number(process.env.EDITBLOCKS_PROP_SCALE || 1);
const CASES = Math.max(1, Math.round(150 * SCALE));

/** The seeded generator with the helpers the reply builder uses. */
function rng(seed) {
  const next = mulberry32(seed);
  return { next, int: (n) => Math.floor(next() * n), pick: (list) => list[Math.floor(next() * list.length)] };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'let x = 1;', 'return y;', '', '  indented', 'fn main() {', '}'];

function lines(r, min, max) {
  const n = min + r.int(max - min + 1);
  return Array.from({ length: n }, () => r.pick(WORDS.filter((w) => w !== '')));
}

/** One piece of a reply: its text. Paths are unique per reply (`f<k>.txt`). */
function piece(r, k) {
  const kind = r.int(6);
  const path = () => `src/f${k.n++}.txt`;
  switch (kind) {
    case 0:
      // A REPLACE section of one blank line is refused as ambiguous: the new text has a line.
      return `${path()}\n<<<<<<< SEARCH\n${lines(r, 1, 3).join('\n')}\n=======\n${lines(r, 1, 3).join('\n')}\n>>>>>>> REPLACE\n`;
    case 1: {
      const old = lines(r, 1, 3);
      return `${path()}\n««« EDIT\n${old.join('\n')}\n═══════ REPL\n${lines(r, 1, 3).join('\n')}\n»»» EDIT END\n`;
    }
    case 2:
      return `${path()}\n««« EDIT\n${lines(r, 1, 2).join('\n')}\n───────\n${lines(r, 1, 2).join('\n')}\n═══════\n${lines(r, 1, 2).join('\n')}\n───────\n${lines(r, 1, 2).join('\n')}\n»»»\n`;
    case 3:
    case 4: {
      // apply-patch with 1–3 operations.
      const ops = [];
      for (let i = 1 + r.int(3); i > 0; i--) {
        const op = r.int(3);
        if (op === 0) ops.push(`*** Add File: ${path()}\n${lines(r, 1, 3).map((l) => `+${l}`).join('\n')}`);
        else if (op === 1) ops.push(`*** Delete File: ${path()}`);
        else ops.push(`*** Update File: ${path()}\n@@\n${lines(r, 1, 2).map((l) => `-${l}`).join('\n')}\n${lines(r, 1, 2).map((l) => `+${l}`).join('\n')}`);
      }
      return `*** Begin Patch\n${ops.join('\n')}\n*** End Patch\n`;
    }
    default: {
      // A unified diff of 1–3 files, fenced or bare.
      const files = [];
      for (let i = 1 + r.int(3); i > 0; i--) {
        const p = path();
        const old = lines(r, 1, 2);
        const now = lines(r, 1, 2);
        files.push(`--- a/${p}\n+++ b/${p}\n@@ -1,${old.length} +1,${now.length} @@\n${old.map((l) => `-${l}`).join('\n')}\n${now.map((l) => `+${l}`).join('\n')}`);
      }
      return r.int(2) ? '```diff\n' + files.join('\n') + '\n```\n' : files.join('\n') + '\n';
    }
  }
}

function reply(r) {
  const k = { n: 0 };
  const parts = [];
  for (let i = 2 + r.int(5); i > 0; i--) parts.push(piece(r, k));
  // Prose between pieces keeps a unified diff from running into the next one.
  return parts.join('\nThen:\n\n');
}

const key = (b) => `${b.format} ${b.filePath} ${b.lineNumber} ${b.operation ?? ''}`;

test(`mixed replies: parseEdits, EditStream in random chunkings and applyEdits agree on the blocks and their order (${CASES} cases)`, () => {
  for (let seed = 1; seed <= CASES; seed++) {
    const r = rng(seed);
    const text = reply(r);
    const blocks = parseEdits(text);
    const where = `seed ${seed}, reply:\n${text}`;
    assert.ok(blocks.length >= 2, `${where}\nfewer blocks than pieces`);
    const lineNumbers = blocks.map((b) => b.lineNumber);
    assert.deepEqual(lineNumbers, [...lineNumbers].sort((a, b) => a - b), `${where}\nblocks out of reply order`);
    for (let round = 0; round < 3; round++) {
      const stream = new EditStream();
      const events = [];
      for (let i = 0; i < text.length;) {
        const size = 1 + r.int(round === 0 ? 4 : 40);
        events.push(...stream.feed(text.slice(i, i + size)));
        i += size;
      }
      events.push(...stream.finish());
      const streamed = events.filter((e) => e.type === 'block-complete').map((e) => e.block);
      assert.deepEqual(streamed.map(key), blocks.map(key), `${where}\nthe stream's blocks differ (round ${round})`);
    }
    // Results follow the blocks: one per block, in the blocks' order.
    const host = { readFile: () => null, writeFile: () => {}, deleteFile: () => {} };
    const result = applyEditsSync(text, host, { dryRun: true });
    assert.deepEqual(result.results.map((x) => x.blockIndex), blocks.map((_, i) => i), `${where}\nresults out of block order`);
    assert.deepEqual(result.results.map((x) => x.path), blocks.map((b) => b.filePath), `${where}\nresults name other files`);
  }
});
