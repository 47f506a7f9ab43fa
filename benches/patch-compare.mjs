#!/usr/bin/env node
// Patch apply, two or more builds of the package against each other and the
// peers, in one Node process: the inputs of benches/patch.mjs, each build
// timed in turn in every round (3 rounds, the fastest batch of each kept),
// so a loaded machine slows every build alike. Use it for before/after:
//
//   cp -r pkg /tmp/pkg-before   # the build to compare against
//   node scripts/build.mjs && node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg"
//   node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg" --only=many   (one case: bigV4a, bigUni, manyV4a, manyUni, peers)
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { applyPatch } from 'diff';
import { applyDiff } from '@openai/agents-core';
const require = createRequire(import.meta.url);
const pkgs = process.argv.slice(2).filter(a=>!a.startsWith('--'));
const only = (process.argv.find(a=>a.startsWith('--only='))||'').slice(7);
const libs = pkgs.map(p => require(p + '/node/index.cjs'));
let seed = 11;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const words = ['value', 'count', 'result', 'items', 'index', 'config', 'path', 'name', 'total', 'user'];
const word = () => words[Math.floor(rand() * words.length)];
const codeLine = (f, i) => `${' '.repeat(4 * (i % 3))}let ${word()}_${f}_${i} = ${word()}(${i});`;

/** A file of `n` unique lines and `k` sections spread over it: the patch texts and the expected result. */
function makeCase(f, n, k) {
  const lines = Array.from({ length: n }, (_, i) => codeLine(f, i));
  const out = [...lines];
  const v4a = [];
  const uni = [];
  let delta = 0;
  const step = Math.floor(n / k);
  for (let s = 0; s < k; s++) {
    const at = s * step + 3; // the changed line
    const ctxA = lines.slice(at - 3, at);
    const ctxB = lines.slice(at + 1, at + 4);
    const old = lines[at];
    const neu = [`${old} // changed`, `${' '.repeat(4)}extra_${f}_${s}();`];
    v4a.push('@@', ...ctxA.map((l) => ` ${l}`), `-${old}`, ...neu.map((l) => `+${l}`), ...ctxB.map((l) => ` ${l}`));
    uni.push(`@@ -${at - 2},7 +${at - 2 + delta},8 @@`, ...ctxA.map((l) => ` ${l}`), `-${old}`, ...neu.map((l) => `+${l}`), ...ctxB.map((l) => ` ${l}`));
    out.splice(at + delta, 1, ...neu);
    delta += 1;
  }
  const path = `src/file_${f}.js`;
  return {
    path,
    before: lines.join('\n') + '\n',
    after: out.join('\n') + '\n',
    v4aBody: v4a.join('\n') + '\n',
    v4aOp: `*** Update File: ${path}\n${v4a.join('\n')}\n`,
    uniFile: `--- a/${path}\n+++ b/${path}\n${uni.join('\n')}\n`,
  };
}

function memoryHost(files) {
  const store = new Map(Object.entries(files));
  return { store, readFile: (p) => (store.has(p) ? store.get(p) : null), writeFile: (p, c) => void store.set(p, c), deleteFile: (p) => void store.delete(p) };
}

// Per call: the fastest of 8 batches of at least minMs / 4 each, after a
// warm-up. On this shared machine a batch that another process slowed says
// nothing about the code; the fastest batch is the repeatable figure (both
// sides are timed the same way).
function time(fn, minMs = 300) {
  for (let i = 0; i < 3; i++) fn();
  let best = Infinity;
  for (let batch = 0; batch < 8; batch++) {
    let runs = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < minMs / 4) {
      fn();
      runs++;
      t = performance.now();
    }
    best = Math.min(best, (t - t0) / runs);
  }
  return best;
}


const big = makeCase(0, 3000, 50);
const bigV4a = `*** Begin Patch\n${big.v4aOp}*** End Patch\n`;
const many = Array.from({ length: 1000 }, (_, f) => makeCase(f + 1, 40, 2));
const files = Object.fromEntries(many.map((c) => [c.path, c.before]));
const manyV4a = `*** Begin Patch\n${many.map((c) => c.v4aOp).join('')}*** End Patch\n`;
const manyUni = many.map((c) => c.uniFile).join('');
const cases = {
  bigV4a: [bigV4a, { [big.path]: big.before }, 300],
  bigUni: [big.uniFile, { [big.path]: big.before }, 300],
  manyV4a: [manyV4a, files, 1000],
  manyUni: [manyUni, files, 1000],
};
// Every build must give the same result objects (key order included) and bytes.
for (const [name, [reply, fs]] of Object.entries(cases)) {
  const seen = libs.map((lib) => {
    const h = memoryHost(fs);
    const r = lib.applyEditsSync(reply, h, { stage: false });
    return JSON.stringify(r) + JSON.stringify([...h.store]);
  });
  console.log(`${name}: same results and bytes in every build: ${seen.every((x) => x === seen[0])}`);
}
const res = {};
for (let round = 0; round < 3; round++) {
  for (const [name, [reply, fs, ms]] of Object.entries(cases)) {
    if (only && !name.startsWith(only)) continue;
    libs.forEach((lib, i) => {
      const t = time(() => { const h = memoryHost(fs); lib.applyEditsSync(reply, h, { stage: false }); }, ms);
      const k = name + ' ' + pkgs[i];
      res[k] = Math.min(res[k] ?? Infinity, t);
    });
  }
}
if (!only || only==='peers') {
  res['bigV4a applyDiff'] = time(() => applyDiff(big.before, big.v4aBody));
  res['bigUni jsdiff'] = time(() => applyPatch(big.before, big.uniFile));
  res['many applyDiff'] = time(() => many.forEach((c) => applyDiff(c.before, c.v4aBody)), 1000);
  res['many jsdiff'] = time(() => many.forEach((c) => applyPatch(c.before, c.uniFile)), 1000);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(50), v.toFixed(3), 'ms');
