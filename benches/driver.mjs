#!/usr/bin/env node
// The host driver's own cost: one reply editing N files of 20 lines (one
// edit each), applied through a sync host (applyEditsSync) and an async one
// (applyEdits, every method a Promise), both in memory, at 1,000 and 10,000
// files. Every file is read, handed to the core, and written back.
//
//   node scripts/build.mjs && node benches/driver.mjs [--against DIR] [N ...]
//
// --against DIR: another built package (its pkg/ folder), loaded in the same
// process and timed in turn with this one on the same input: the A/B of a
// change. Each build's files must come out the same.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { inTurn } from './in-turn.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--against');
const against = at >= 0 ? args.splice(at, 2)[1] : null;
const sizes = args.length ? args.map(Number) : [1000, 10000];

const builds = [['this build', await import('../pkg/node/index.mjs')]];
if (against) builds.unshift([against, await import(pathToFileURL(path.resolve(against, 'node', 'index.mjs')).href)]);

const syncHost = (files) => ({
  readFile: (p) => files.get(p) ?? null,
  writeFile: (p, text) => void files.set(p, text),
  deleteFile: (p) => void files.delete(p),
});
const asyncHost = (files) => ({
  readFile: async (p) => files.get(p) ?? null,
  writeFile: async (p, text) => void files.set(p, text),
  deleteFile: async (p) => void files.delete(p),
});

let wrong = 0;
for (const n of sizes) {
  const body = (i) => Array.from({ length: 20 }, (_, k) => `line ${k} of file ${i}\n`).join('');
  const original = new Map(Array.from({ length: n }, (_, i) => [`src/f${i}.txt`, body(i)]));
  const reply = [...original.keys()]
    .map((p, i) => `${p}\n<<<<<<< SEARCH\nline 7 of file ${i}\n=======\nline seven of file ${i}\n>>>>>>> REPLACE\n`)
    .join('\n');
  for (const [kind, makeHost, apply] of [
    ['sync host', syncHost, (pkg, host) => pkg.applyEditsSync(reply, host)],
    ['async host', asyncHost, (pkg, host) => pkg.applyEdits(reply, host)],
  ]) {
    const outputs = [];
    for (const round of [1, 2, 3]) {
      for (const [name, pkg] of inTurn(builds, round - 1)) {
        const files = new Map(original);
        const started = performance.now();
        const result = await apply(pkg, makeHost(files));
        const ms = performance.now() - started;
        const applied = result.results.filter((r) => r.status === 'applied').length;
        if (applied !== n) wrong++;
        outputs.push([...files.values()].join(''));
        console.log(`${n} files, ${kind}, round ${round}, ${name}: ${ms.toFixed(0)} ms (${applied} applied)`);
      }
    }
    if (outputs.some((o) => o !== outputs[0])) {
      console.log(`${n} files, ${kind}: the builds' files differ`);
      wrong++;
    }
  }
}
if (wrong) {
  console.error(`${wrong} runs did not apply every edit or gave other files`);
  process.exit(1);
}
