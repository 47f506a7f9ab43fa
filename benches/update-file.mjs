#!/usr/bin/env node
// Tool calls that carry a V4A `update_file` operation (the Responses API's
// apply_patch_call): 300 of them, each changing one line of the same
// 2,000-line file, through applyToolCallsSync on an in-memory host. Prints
// the CPU time of one run (the median of 15).
//
//   node scripts/build.mjs && node benches/update-file.mjs [--against DIR]
//
// --against DIR: another built package (its pkg/ folder), loaded in the same
// process and run in turn with this one: the A/B of a change. Both must
// leave the same file.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inTurn } from './in-turn.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--against');
const against = at >= 0 ? args[at + 1] : null;
const builds = [['this build', await import('../pkg/node/index.mjs')]];
if (against) builds.unshift([against, await import(pathToFileURL(path.resolve(against, 'node', 'index.mjs')).href)]);

const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} of the file`);
const file = lines.join('\n') + '\n';
const calls = Array.from({ length: 300 }, (_, k) => {
  const i = k * 6 + 3;
  const diff = `@@\n ${lines[i - 1]}\n-${lines[i]}\n+${lines[i]} changed\n ${lines[i + 1]}\n`;
  return { type: 'apply_patch_call', call_id: `c${k}`, operation: { type: 'update_file', path: 'a.txt', diff } };
});
function memoryHost() {
  const files = new Map([['a.txt', file]]);
  return { files, readFile: (p) => files.get(p) ?? null, writeFile: (p, c) => files.set(p, c), deleteFile: (p) => files.delete(p) };
}
function run(api) {
  const host = memoryHost();
  const result = api.applyToolCallsSync(calls, host);
  if (!result.ok) throw new Error(`the calls failed: ${result.errors.slice(0, 2).join(' ')}`);
  return host.files.get('a.txt');
}
const outputs = builds.map(([, api]) => run(api));
if (outputs.some((o) => o !== outputs[0])) throw new Error('the builds left different files');
if (outputs[0].split('changed').length !== calls.length + 1) throw new Error('not every call changed its line');

const cpuMs = (fn) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const times = builds.map(() => []);
for (let round = 0; round < 3; round++) for (const [, api] of builds) run(api);
const indexes = builds.map((_, i) => i);
for (let round = 0; round < 15; round++) for (const i of inTurn(indexes, round)) times[i].push(cpuMs(() => run(builds[i][1])));
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
console.log('300 update_file calls on one 2,000-line file, CPU per run (median of 15, in turn):');
builds.forEach(([name], i) => console.log(`  ${name.padEnd(30)} ${median(times[i]).toFixed(1)} ms`));
