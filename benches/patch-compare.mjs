#!/usr/bin/env node
// Patch apply, two or more builds of the package against each other and the
// peers, on the inputs of benches/patch.mjs. Use it for before/after:
//
//   cp -r pkg /tmp/pkg-before   # the build to compare against
//   node scripts/build.mjs && node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg"
//   node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg" --only=many   (one case: bigV4a, bigUni, manyV4a, manyUni, peers)
//   node benches/patch-compare.mjs /tmp/pkg-before "$PWD/pkg" --cpu   (CPU time of the timing process, not wall clock: steadier on a shared machine)
//   node benches/patch-compare.mjs ... --rounds=5   (default 3)
//
// Each build (and the peers) is timed in a Node process of its own, the
// builds taking turns round after round, and the fastest round of each is
// kept. Timing two builds in one process is not fair: the build loaded
// second was seen up to 40% slower, whichever build it was. First, in this
// process, every build must give the same result objects and bytes.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { applyPatch, parsePatch } from 'diff';
import { applyDiff } from '@openai/agents-core';
import { makeCase, memoryHost, time } from './patch-cases.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const flag = (name) => (args.find((a) => a.startsWith(`--${name}=`)) || '').slice(name.length + 3);
const only = flag('only');
const cpu = args.includes('--cpu');
const child = flag('child'); // a build's path, or `peer:<name>`: time that alone and print JSON

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
const peers = {
  'bigV4a applyDiff': [() => applyDiff(big.before, big.v4aBody), 300],
  'bigUni jsdiff': [() => applyPatch(big.before, big.uniFile), 300],
  'many applyDiff': [() => many.forEach((c) => applyDiff(c.before, c.v4aBody)), 1000],
  'many jsdiff': [() => many.forEach((c) => applyPatch(c.before, c.uniFile)), 1000],
  // The peers as a user of them would apply one 1,000-file reply: through
  // the same memory host, jsdiff parsing the whole reply (`parsePatch`,
  // then `applyPatch` per file); `applyDiff` cannot split a multi-file
  // patch, so it is handed each file's section already split (in its
  // favour).
  'many jsdiff, one reply via host': [() => jsdiffReply(memoryHost(files)), 1000],
  'many applyDiff, via host': [() => applyDiffEach(memoryHost(files)), 1000],
};
function jsdiffReply(host) {
  for (const patch of parsePatch(manyUni)) {
    const path = patch.newFileName.replace(/^b\//, '');
    const after = applyPatch(host.readFile(path), patch);
    if (after === false) throw new Error(`jsdiff refused ${path}`);
    host.writeFile(path, after);
  }
  return host;
}
function applyDiffEach(host) {
  for (const c of many) host.writeFile(c.path, applyDiff(host.readFile(c.path), c.v4aBody));
  return host;
}

if (child) {
  const out = {};
  if (child.startsWith('peer:')) {
    // One peer form per process: a function that a process has also called
    // with other argument shapes (jsdiff's `applyPatch` with a text and with
    // a parsed patch) was timed up to 50% slower.
    const name = child.slice('peer:'.length);
    const [fn, ms] = peers[name];
    out[name] = time(fn, ms, cpu);
  } else {
    const lib = require(child + '/node/index.cjs');
    for (const [name, [reply, fs, ms]] of Object.entries(cases)) {
      if (only && !name.startsWith(only)) continue;
      out[name] = time(() => lib.applyEditsSync(reply, memoryHost(fs), { stage: false }), ms, cpu);
    }
  }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}

// The peers' host forms must write what the builds write (checked here, in
// the parent: a timing process calls each peer form only in its own shape).
for (const [name, form] of [['jsdiff, one reply', jsdiffReply], ['applyDiff', applyDiffEach]]) {
  const store = form(memoryHost(files)).store;
  if (!many.every((c) => store.get(c.path) === c.after)) throw new Error(`${name} via host wrote other bytes`);
}

const pkgs = args.filter((a) => !a.startsWith('--'));
// Every build must give the same result objects (key order included) and bytes.
const libs = pkgs.map((p) => require(p + '/node/index.cjs'));
for (const [name, [reply, fs]] of Object.entries(cases)) {
  const seen = libs.map((lib) => {
    const h = memoryHost(fs);
    const r = lib.applyEditsSync(reply, h, { stage: false });
    return JSON.stringify(r) + JSON.stringify([...h.store]);
  });
  console.log(`${name}: same results and bytes in every build: ${seen.every((x) => x === seen[0])}`);
}

const rounds = Number(flag('rounds') || 3);
const runners = [...pkgs, ...(!only || only === 'peers' ? Object.keys(peers).map((name) => `peer:${name}`) : [])];
const best = {};
const self = fileURLToPath(import.meta.url);
for (let round = 0; round < rounds; round++) {
  for (const who of runners) {
    const passOn = args.filter((a) => a === '--cpu' || a.startsWith('--only='));
    const run = spawnSync(process.execPath, [self, `--child=${who}`, ...passOn], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`timing ${who} failed: ${run.stderr}`);
    for (const [name, ms] of Object.entries(JSON.parse(run.stdout))) {
      const key = who.startsWith('peer:') ? name : `${name} ${who}`;
      best[key] = Math.min(best[key] ?? Infinity, ms);
    }
  }
}
const unit = cpu ? 'ms CPU' : 'ms';
for (const key of Object.keys(best).sort()) console.log(key.padEnd(50), best[key].toFixed(3), unit);
