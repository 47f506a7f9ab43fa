#!/usr/bin/env node
// The patch formats against the peers a JavaScript user would pick instead,
// on the same generated inputs in one run:
//   - apply-patch (V4A) vs `applyDiff` from @openai/agents-core (one file);
//   - unified-diff vs `applyPatch` from jsdiff (`diff`).
// Correctness first (every patch has one right answer: each section's lines
// occur once in its file; all three must give the expected bytes), then
// speed on a 3,000-line file with 50 sections and on 1,000 files, then the
// parser on a 4 MB patch, one shot and streamed in 64-byte chunks.
//
// Usage: node scripts/build.mjs && node benches/patch.mjs
//        EDITBLOCKS_PKG=/tmp/pkg-before/node/index.cjs node benches/patch.mjs --parse   (another build)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { applyPatch } from 'diff';
import { applyDiff } from '@openai/agents-core';
import { makeCase, memoryHost, time } from './patch-cases.mjs';

const require = createRequire(import.meta.url);
const { applyEditsSync, parseEdits, EditStream } = require(process.env.EDITBLOCKS_PKG ?? '../pkg/node/index.cjs');

const ours = (reply, files) => {
  const host = memoryHost(files);
  const r = applyEditsSync(reply, host, { stage: false });
  return { host, r };
};

// The parse figures come from a child process of their own (`--parse`):
// in this one, the apply part leaves 1,000 files and their results on the
// heap, and the 4 MB parse then measured the collector more than the parser
// (one shot 68 / 58 MB/s instead of ~150 / ~110 in a fresh process on the
// same build). Each part starts from the same fresh state.
const parseOnly = process.argv[2] === '--parse';
const fmt = (ms) => `${ms.toFixed(2)} ms`;
if (!parseOnly) {
  // ---- correctness and speed: one 3,000-line file, 50 sections ----
  const big = makeCase(0, 3000, 50);
  const bigV4a = `*** Begin Patch\n${big.v4aOp}*** End Patch\n`;
  const oursV4a = ours(bigV4a, { [big.path]: big.before }).host.store.get(big.path);
  const oursUni = ours(big.uniFile, { [big.path]: big.before }).host.store.get(big.path);
  const sdk = applyDiff(big.before, big.v4aBody);
  const js = applyPatch(big.before, big.uniFile);
  const same = (a) => (a === big.after ? 'same bytes' : 'DIFFERENT');
  console.log('3,000-line file, 50 sections: expected bytes?');
  console.log(`  editblocks apply-patch: ${same(oursV4a)}   agents-core applyDiff: ${same(sdk)}`);
  console.log(`  editblocks unified-diff: ${same(oursUni)}   jsdiff applyPatch: ${same(js)}`);

  const tOursV4a = time(() => ours(bigV4a, { [big.path]: big.before }));
  const tSdk = time(() => applyDiff(big.before, big.v4aBody));
  const tOursUni = time(() => ours(big.uniFile, { [big.path]: big.before }));
  const tJs = time(() => applyPatch(big.before, big.uniFile));
  console.log('3,000-line file, 50 sections (parse + locate + apply, per call):');
  console.log(`  editblocks apply-patch (applyEditsSync, memory host): ${fmt(tOursV4a)}   agents-core applyDiff: ${fmt(tSdk)}   (${(tSdk / tOursV4a).toFixed(1)}x)`);
  console.log(`  editblocks unified-diff (applyEditsSync, memory host): ${fmt(tOursUni)}   jsdiff applyPatch: ${fmt(tJs)}   (${(tJs / tOursUni).toFixed(1)}x)`);

  // ---- 1,000 files, one patch ----
  const many = Array.from({ length: 1000 }, (_, f) => makeCase(f + 1, 40, 2));
  const files = Object.fromEntries(many.map((c) => [c.path, c.before]));
  const manyV4a = `*** Begin Patch\n${many.map((c) => c.v4aOp).join('')}*** End Patch\n`;
  const manyUni = many.map((c) => c.uniFile).join('');
  {
    const a = ours(manyV4a, files).host;
    const b = ours(manyUni, files).host;
    const ok = (h) => many.every((c) => h.store.get(c.path) === c.after);
    const okSdk = many.every((c) => applyDiff(c.before, c.v4aBody) === c.after);
    const okJs = many.every((c) => applyPatch(c.before, c.uniFile) === c.after);
    console.log(`1,000 files: expected bytes? editblocks apply-patch ${ok(a)}, unified-diff ${ok(b)}; agents-core ${okSdk}; jsdiff ${okJs}`);
  }
  const tManyV4a = time(() => ours(manyV4a, files), 1000);
  const tManySdk = time(() => many.forEach((c) => applyDiff(c.before, c.v4aBody)), 1000);
  const tManyUni = time(() => ours(manyUni, files), 1000);
  const tManyJs = time(() => many.forEach((c) => applyPatch(c.before, c.uniFile)), 1000);
  console.log('1,000 files of 40 lines, 2 sections each (one patch for editblocks; one call per file for the peers):');
  console.log(`  editblocks apply-patch: ${fmt(tManyV4a)}   agents-core applyDiff x1000: ${fmt(tManySdk)}   (${(tManySdk / tManyV4a).toFixed(1)}x)`);
  console.log(`  editblocks unified-diff: ${fmt(tManyUni)}   jsdiff applyPatch x1000: ${fmt(tManyJs)}   (${(tManyJs / tManyUni).toFixed(1)}x)`);

  spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--parse'], { stdio: 'inherit' });
}

// ---- parse: a 4 MB patch ----
if (parseOnly) for (const [name, text] of [
  ['apply-patch', (() => { let t = '*** Begin Patch\n'; let f = 2000; while (t.length < 4e6) t += makeCase(f++, 60, 3).v4aOp; return t + '*** End Patch\n'; })()],
  ['unified-diff', (() => { let t = ''; let f = 5000; while (t.length < 4e6) t += makeCase(f++, 60, 3).uniFile; return t; })()],
]) {
  const mb = Buffer.byteLength(text) / 1e6;
  const n = parseEdits(text).length;
  // Also per CPU-second of this process (process.cpuUsage): on a shared,
  // loaded machine the wall clock counts the time other processes held the
  // cores (GC threads count too, so this side is pessimistic).
  // Timed as the apply figures are: the fastest of 8 batches of at least
  // 250 ms each (a batch's collections included), after a warm-up.
  const timed = (fn) => {
    fn();
    let best = { ms: Infinity, cpuMs: Infinity };
    for (let batch = 0; batch < 8; batch++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let runs = 0;
      let t = t0;
      while (t - t0 < 250) {
        fn();
        runs++;
        t = performance.now();
      }
      const c = process.cpuUsage(c0);
      if ((t - t0) / runs < best.ms) best = { ms: (t - t0) / runs, cpuMs: (c.user + c.system) / 1000 / runs };
    }
    return best;
  };
  const one = timed(() => parseEdits(text));
  const streamed = timed(() => {
    const s = new EditStream();
    for (let i = 0; i < text.length; i += 64) s.feed(text.slice(i, i + 64));
    s.finish();
  });
  const rate = (t) => `${(mb / (t.ms / 1000)).toFixed(1)} MB/s (${fmt(t.ms)}; ${(mb / (t.cpuMs / 1000)).toFixed(0)} MB per CPU-second)`;
  console.log(`parse ${name}, ${mb.toFixed(1)} MB (${n} operations): one shot ${rate(one)}, streamed in 64-byte chunks ${rate(streamed)}`);
}
