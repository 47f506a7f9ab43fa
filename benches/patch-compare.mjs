#!/usr/bin/env node
// Patch apply, two or more builds of the package against each other and the
// peers, in one Node process: the inputs of benches/patch.mjs, each build
// timed in turn in every round (3 rounds, the fastest batch of each kept),
// so a loaded machine slows every build alike. Use it for before/after:
//
//   cp -r pkg /tmp/pkg-before   # the build to compare against
//   node scripts/build.mjs && node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg"
//   node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg" --only=many   (one case: bigV4a, bigUni, manyV4a, manyUni, peers)
//   node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg" --cpu   (CPU time of this process, not wall clock: steadier on a shared machine)
//
// Run it twice, the builds' order swapped: in some runs the build loaded
// second is timed up to 40% slower whichever build it is (seen with two
// copies of the same build), and only a difference that holds in both
// orders is the code's.
import { createRequire } from 'node:module';
import { applyPatch } from 'diff';
import { applyDiff } from '@openai/agents-core';
import { makeCase, memoryHost, time } from './patch-cases.mjs';
const require = createRequire(import.meta.url);
const pkgs = process.argv.slice(2).filter(a=>!a.startsWith('--'));
const only = (process.argv.find(a=>a.startsWith('--only='))||'').slice(7);
const cpu = process.argv.includes('--cpu');
const libs = pkgs.map(p => require(p + '/node/index.cjs'));
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
      const t = time(() => { const h = memoryHost(fs); lib.applyEditsSync(reply, h, { stage: false }); }, ms, cpu);
      const k = name + ' ' + pkgs[i];
      res[k] = Math.min(res[k] ?? Infinity, t);
    });
  }
}
if (!only || only==='peers') {
  res['bigV4a applyDiff'] = time(() => applyDiff(big.before, big.v4aBody), 300, cpu);
  res['bigUni jsdiff'] = time(() => applyPatch(big.before, big.uniFile), 300, cpu);
  res['many applyDiff'] = time(() => many.forEach((c) => applyDiff(c.before, c.v4aBody)), 1000, cpu);
  res['many jsdiff'] = time(() => many.forEach((c) => applyPatch(c.before, c.uniFile)), 1000, cpu);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(50), v.toFixed(3), cpu ? 'ms CPU' : 'ms');
