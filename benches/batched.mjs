#!/usr/bin/env node
// One edit_file call with N batched edits to one N-line file (each edit
// changes part of its own line), at 10,000 and 100,000 edits: with one pass
// over the file the larger size costs about ten times the smaller.
//
//   node scripts/build.mjs && node benches/batched.mjs [--against DIR] [N ...]
//
// --against DIR: another built package (its pkg/ folder), loaded in the same
// process and timed in turn with this one on the same input, each in a fresh
// copy of the file: the A/B of a change.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { inTurn } from './in-turn.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--against');
const against = at >= 0 ? args.splice(at, 2)[1] : null;
const sizes = args.length ? args.map(Number) : [10000, 100000];

const builds = [['this build', await import('../pkg/node/index.mjs')]];
if (against) builds.unshift([against, await import(pathToFileURL(path.resolve(against, 'node', 'index.mjs')).href)]);

const memoryHost = (files) => ({
  files,
  readFile: (p) => files.get(p) ?? null,
  writeFile: (p, text) => files.set(p, text),
  deleteFile: (p) => files.delete(p),
  exists: (p) => files.has(p),
});

let wrong = 0;
for (const n of sizes) {
  const file = Array.from({ length: n }, (_, i) => `    let value_${i} = compute(${i});\n`).join('');
  const edits = Array.from({ length: n }, (_, i) => ({ path: 'f.rs', old_string: `value_${i} = compute(`, new_string: `value_${i} = compute2(` }));
  for (const round of [1, 2]) {
    for (const [name, pkg] of inTurn(builds, round - 1)) {
      const host = memoryHost(new Map([['f.rs', file]]));
      const started = performance.now();
      const result = pkg.applyToolCallsSync([{ name: 'edit_file', arguments: { edits } }], host);
      const took = performance.now() - started;
      const text = host.files.get('f.rs');
      const ok = result.ok && text.startsWith('    let value_0 = compute2(0);\n') && text.split('compute2(').length === n + 1;
      if (!ok) wrong++;
      console.log(`${String(n).padStart(7)} edits  round ${round}  ${name.padEnd(24)} ${(took / 1000).toFixed(2).padStart(7)} s  ${ok ? 'ok' : 'WRONG RESULT'}`);
    }
  }
}
if (wrong) {
  console.error(`${wrong} run(s) gave a wrong result`);
  process.exitCode = 1;
}
