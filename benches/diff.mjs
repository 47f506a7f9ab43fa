#!/usr/bin/env node
// Times diffBlock (the built package, pkg/node) against jsdiff (`diff`):
// diffLines, then diffChars on each changed pair of lines, on the same inputs
// in the same run. Also times 10,000-line worst cases for the bound.
//
// Usage: node scripts/build.mjs && node benches/diff.mjs
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { diffChars, diffLines } from 'diff';

const require = createRequire(import.meta.url);
const { diffBlock } = require('../pkg/node/index.cjs');

// Deterministic pseudo-random words so every run times the same inputs.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const words = ['value', 'count', 'result', 'items', 'index', 'config', 'path', 'name', 'total', 'user', 'data', 'next'];
const word = () => words[Math.floor(rand() * words.length)];
const codeLine = (i) => {
  const indent = ' '.repeat(4 * (i % 3));
  switch (i % 5) {
    case 0: return `${indent}const ${word()}_${i} = ${word()}(${word()}, ${i});`;
    case 1: return `${indent}if (${word()}.${word()} > ${i % 17}) {`;
    case 2: return `${indent}  return ${word()}[${word()}] + ${i};`;
    case 3: return `${indent}}`;
    default: return `${indent}// ${word()} ${word()} ${word()} for step ${i}`;
  }
};
const tweak = (line, i) => line.replace(/\d+/, (n) => String(Number(n) + 1)).replace(words[i % words.length], 'renamed') + (i % 2 ? ' // changed' : '');

function makeFile(lines, changeEvery) {
  const old = [];
  const neu = [];
  for (let i = 0; i < lines; i++) {
    const line = codeLine(i);
    old.push(line);
    neu.push(i % changeEvery === changeEvery - 1 ? tweak(line, i) : line);
  }
  return [old.join('\n'), neu.join('\n')];
}

/** jsdiff's way: diffLines, then diffChars on each removed/added pair. */
function jsdiff(oldText, newText) {
  const parts = diffLines(oldText, newText);
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1];
    if (part.removed && next && next.added) {
      const a = part.value.replace(/\n$/, '').split('\n');
      const b = next.value.replace(/\n$/, '').split('\n');
      for (let k = 0; k < Math.min(a.length, b.length); k++) out.push(diffChars(a[k], b[k]));
      i++;
    }
    out.push(part);
  }
  return out;
}

/**
 * Median time per call of `a` and `b`, measured in alternating slices so a
 * burst of load on a shared machine hits both sides alike.
 */
function timePair(a, b, rounds = 12, sliceMs = 40) {
  for (let i = 0; i < 5; i++) {
    a();
    b();
  }
  const samples = [[], []];
  for (let r = 0; r < rounds; r++) {
    [a, b].forEach((fn, side) => {
      const start = performance.now();
      do {
        const t0 = performance.now();
        fn();
        samples[side].push(performance.now() - t0);
      } while (performance.now() - start < sliceMs);
    });
  }
  return samples.map((s) => {
    s.sort((x, y) => x - y);
    return s[Math.floor(s.length / 2)];
  });
}

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

const cases = [
  ['60-line block, 4 lines changed', makeFile(60, 15)],
  ['3,000-line file, 1 line in 11 changed', makeFile(3000, 11)],
];

console.log('diffBlock (editblocks, wasm) vs jsdiff 9 (diffLines + diffChars per changed pair), median per call, measured in alternating slices\n');
let allFaster = true;
for (const [name, [a, b]] of cases) {
  const [ours, theirs] = timePair(() => diffBlock(a, b), () => jsdiff(a, b));
  const ratio = theirs / ours;
  if (ratio < 3) allFaster = false;
  const lines = diffBlock(a, b);
  const size = `${lines.length} lines, ${lines.filter((l) => l.spans).length} with spans`;
  console.log(`${name.padEnd(40)} editblocks ${fmt(ours).padStart(10)}   jsdiff ${fmt(theirs).padStart(10)}   ${ratio.toFixed(1)}x faster (${size})`);
}

console.log('\nworst cases, 10,000 lines (bound: 100 ms):');
const different = [
  Array.from({ length: 10000 }, (_, i) => `old ${codeLine(i)} ${i}`).join('\n'),
  Array.from({ length: 10000 }, (_, i) => `${i * 7} new ${word()} ${word()} ${word()}`).join('\n'),
];
const allChanged = makeFile(10000, 1);
const oneLongLine = ['x'.repeat(200000), 'y'.repeat(100000) + 'x'.repeat(100000)];
let within = true;
for (const [name, [a, b]] of [
  ['every line different', different],
  ['every line slightly changed', allChanged],
  ['one 200,000-character line', oneLongLine],
]) {
  let worst = 0;
  let size = '';
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const lines = diffBlock(a, b);
    worst = Math.max(worst, performance.now() - t0);
    // Lines, lines with spans and the cut flag: equal on a quiet and a loaded machine.
    size = `${lines.length} lines, ${lines.filter((l) => l.spans).length} with spans${lines.cutShort ? ', cut short' : ''}`;
  }
  if (worst > 100) within = false;
  console.log(`${name.padEnd(40)} editblocks ${fmt(worst).padStart(10)} (slowest of 5; ${size})`);
}
console.log(`\ntarget ≥3x faster than jsdiff on both: ${allFaster ? 'met' : 'NOT met'}; 10,000-line bound: ${within ? 'met' : 'NOT met'}`);
