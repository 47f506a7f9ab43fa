// Unified diffs against jsdiff, the peer a JS user would pick: random old and
// new texts (few distinct lines, so blocks repeat), jsdiff's createPatch with
// 0–3 context lines, then the patch applied by jsdiff's applyPatch and by
// applyEditsSync. Where jsdiff applies, the bytes must be the same; the file
// may also be CRLF, or have lines jsdiff's patch does not know about at the
// top (the hunks found at an offset, later hunks' stated lines moved by it).
// Left out on purpose: a CRLF patch where either side lacks a final newline
// (`\ No newline at end of file`), where jsdiff keeps the patch's CR as
// content: a stray CR at the end of the file, or a last line it cannot match.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { applyEditsSync } from '../../pkg/node/index.mjs';

const require = createRequire(import.meta.url);
const { createPatch, applyPatch } = require('diff');

let seed = 20261127;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
const WORDS = ['a', 'b', 'c', '', 'x = 1', '  y', 'return 0;'];

function randomText() {
  const n = rand(12);
  const text = Array.from({ length: n }, () => WORDS[rand(WORDS.length)]).join('\n');
  return n && rand(4) ? `${text}\n` : text;
}

function changed(text) {
  const lines = text.split('\n');
  for (let k = 1 + rand(3); k > 0; k--) {
    const at = rand(lines.length + 1);
    const op = rand(3);
    if (op === 0) lines.splice(at, 0, `new ${rand(9)}`);
    else if (op === 1 && lines.length) lines.splice(at % lines.length, 1);
    else if (lines.length) lines[at % lines.length] = `changed ${rand(9)}`;
  }
  return lines.join('\n');
}

function ours(file, patch) {
  const store = new Map([['f.txt', file]]);
  const host = { readFile: (p) => store.get(p) ?? null, writeFile: (p, c) => void store.set(p, c), deleteFile: (p) => void store.delete(p) };
  const result = applyEditsSync(patch, host);
  const failed = result.results.find((r) => r.status !== 'applied');
  return { text: store.get('f.txt'), failed: failed?.reason ?? (result.results.length ? null : 'no edit read') };
}

for (const variant of ['lf', 'crlf file', 'shifted', 'crlf file and patch']) {
  test(`jsdiff's own patches apply to the same bytes: ${variant}`, () => {
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      let old = randomText();
      let neu = changed(old);
      if (variant === 'crlf file and patch') {
        // Both sides end with a newline: without one jsdiff keeps the patch's CR.
        if (!old.endsWith('\n')) old += '\n';
        if (!neu.endsWith('\n')) neu += '\n';
      }
      if (old === neu) continue;
      let patch = createPatch('f.txt', old, neu, '', '', { context: rand(4) });
      let file = old;
      if (variant === 'shifted') file = Array.from({ length: rand(4) }, () => `${WORDS[rand(WORDS.length)]}\n`).join('') + old;
      if (variant.startsWith('crlf')) file = file.replace(/\n/g, '\r\n');
      if (variant === 'crlf file and patch') patch = patch.replace(/\n/g, '\r\n');
      const peer = applyPatch(file, patch);
      if (peer === false) continue;
      const got = ours(file, patch);
      assert.equal(got.failed, null, `case ${i}: refused a patch jsdiff applies:\n${patch}\nfile ${JSON.stringify(file)}`);
      assert.equal(got.text, peer, `case ${i}: other bytes than jsdiff:\n${patch}\nfile ${JSON.stringify(file)}`);
      compared++;
    }
    assert.ok(compared > 300, `only ${compared} cases compared`);
  });
}
