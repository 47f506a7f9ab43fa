// apply-patch against the Agents SDK's applyDiff (@openai/agents-core), the
// peer a JS user would pick for V4A: random files (few distinct lines),
// one or two `@@` sections cut from them with context, removed, replaced and
// inserted lines. Where each section's old lines occur once after the one
// before (one right answer: the SDK takes the first of several, we refuse),
// the SDK's result and applyEditsSync's must be the same bytes, or both
// refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { applyEditsSync } from '../../pkg/node/index.mjs';

const require = createRequire(import.meta.url);
const { applyDiff } = require('@openai/agents-core');

let seed = 20261127;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
const WORDS = ['a', 'b', '', 'x = 1', '  y', 'def f():', '    return 1'];

function randomCase() {
  const n = 1 + rand(10);
  const lines = Array.from({ length: n }, () => WORDS[rand(WORDS.length)] + (rand(3) ? '' : String(rand(5))));
  // A blank last line would be the file's final newline to the SDK (it splits on '\n'),
  // a line the file does not have to us: a section using it has no one answer.
  if (lines[n - 1] === '') lines[n - 1] = 'end';
  const file = lines.join('\n') + (rand(4) ? '\n' : '');
  const sections = [];
  let from = 0;
  for (let s = 1 + rand(2); s > 0 && from < n; s--) {
    const start = from + rand(n - from);
    const len = 1 + rand(Math.min(4, n - start));
    const body = [];
    for (let j = start; j < start + len; j++) {
      const kind = rand(4);
      if (kind === 0) body.push(` ${lines[j]}`);
      else if (kind === 1) body.push(`-${lines[j]}`);
      else if (kind === 2) body.push(`-${lines[j]}`, `+new ${rand(9)}`);
      else body.push(` ${lines[j]}`, `+inserted ${rand(9)}`);
    }
    if (body.every((l) => l.startsWith(' '))) body.push(`+added ${rand(9)}`);
    sections.push(body);
    from = start + len;
  }
  // One right answer: each section's old lines occur once after the section before.
  let cursor = 0;
  for (const body of sections) {
    const old = body.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
    const starts = [];
    for (let p = cursor; p + old.length <= n; p++) if (old.every((t, k) => lines[p + k] === t)) starts.push(p);
    if (starts.length !== 1) return null;
    cursor = starts[0] + old.length;
  }
  return { file, diff: sections.map((b) => ['@@', ...b].join('\n')).join('\n') };
}

test("the Agents SDK's applyDiff and apply-patch give the same bytes", () => {
  let compared = 0;
  for (let i = 0; i < 600; i++) {
    const c = randomCase();
    if (!c) continue;
    let peer = null;
    try {
      peer = applyDiff(c.file, c.diff);
    } catch {}
    const store = new Map([['f.txt', c.file]]);
    const host = { readFile: (p) => store.get(p) ?? null, writeFile: (p, t) => void store.set(p, t), deleteFile: (p) => void store.delete(p) };
    const reply = `*** Begin Patch\n*** Update File: f.txt\n${c.diff}\n*** End Patch\n`;
    const result = applyEditsSync(reply, host);
    const applied = result.results.length > 0 && result.results.every((r) => r.status === 'applied');
    const where = `case ${i}:\n${reply}file ${JSON.stringify(c.file)}`;
    if (peer === null) {
      assert.ok(!applied, `applied a patch the SDK refuses, ${where}`);
      continue;
    }
    assert.ok(applied, `refused a patch the SDK applies (${result.results[0]?.reason}), ${where}`);
    assert.equal(store.get('f.txt'), peer, `other bytes than the SDK, ${where}`);
    compared++;
  }
  assert.ok(compared > 200, `only ${compared} cases compared`);
});
