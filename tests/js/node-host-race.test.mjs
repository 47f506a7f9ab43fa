// nodeHost under a symlink race: another process swaps a folder inside the
// root with a symbolic link to a folder outside it (renameat2 with
// RENAME_EXCHANGE, the atomic swap an attacker would use), as fast as it can,
// while nodeHost writes into that folder. Nothing may land outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeHost } from '../../pkg/node/index.mjs';
import { startSwapper, stopSwapper as stop } from './support/swapper.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '../../pkg/bin/editblocks.mjs');
// The race is about path lookup, not the disk: tmpfs keeps 20,000 fsyncs quick.
const base = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const tmp = (name) => fs.mkdtempSync(path.join(base, `editblocks-${name}-`));

const made = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function arena(name) {
  const outside = tmp(`${name}-outside`);
  const root = tmp(`${name}-root`);
  made.push(outside, root);
  fs.mkdirSync(path.join(root, 'd'));
  fs.symlinkSync(outside, path.join(root, 'l'));
  const state = tmp(`${name}-state`);
  made.push(state);
  return { outside, root, state };
}

test('20,000 writes and more raced against a folder/symlink swap: none lands outside the root', { skip: process.platform !== 'linux' && 'renameat2 is Linux-only' }, async () => {
  const { outside, root, state } = arena('race');
  const swapper = await startSwapper(path.join(root, 'd'), path.join(root, 'l'));
  const counts = { written: 0, refused: 0, other: 0 };
  const others = new Set();
  const started = performance.now();
  try {
    const host = nodeHost(root, { stateDir: state });
    // At least 20,000 writes, and on until the race was real: each outcome
    // 100 times (on a loaded machine the swapper may be scheduled rarely).
    const raced = () => counts.written > 100 && counts.refused > 100;
    for (let i = 0; i < 400000 && (i < 20000 || !raced()); i++) {
      try {
        host.writeFile(`d/f${i % 200}.txt`, `${i}\n`);
        counts.written++;
      } catch (e) {
        if (e.code === 'EDITBLOCKS_PATH_ESCAPE') counts.refused++;
        else {
          counts.other++;
          others.add(`${e.code}: ${e.message}`);
        }
      }
    }
  } finally {
    await stop(swapper);
  }
  const ms = Math.round(performance.now() - started);
  console.log(`race: ${JSON.stringify(counts)} other errors: ${[...others].join(', ') || 'none'} in ${ms} ms`);
  assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written outside the root');
  // The race was real: both outcomes happened.
  assert.ok(counts.written > 100 && counts.refused > 100, JSON.stringify(counts));
  assert.equal(counts.other, 0, [...others].join(', '));
  // No temporary file is left anywhere in the root.
  const left = [];
  for (const dir of ['d', 'l']) for (const f of fs.readdirSync(path.join(root, dir))) if (f.endsWith('.tmp')) left.push(f);
  assert.deepEqual(left, []);
});

test('the CLI under the same race writes nothing outside, and says which edits were refused', { skip: process.platform !== 'linux' && 'renameat2 is Linux-only' }, async () => {
  const { outside, root, state } = arena('clirace');
  const reply = Array.from({ length: 500 }, (_, i) => `d/n${i}.txt\n««« EDIT\n═══════ REPL\nline ${i}\n»»» EDIT END\n`).join('\n');
  const replyFile = path.join(state, 'reply.md');
  fs.writeFileSync(replyFile, reply);
  const swapper = await startSwapper(path.join(root, 'd'), path.join(root, 'l'));
  const seen = { applied: 0, skipped: 0, runs: 0, failedRuns: 0 };
  try {
    // Four runs, and on (up to 40) until one met the swap.
    for (let run = 0; run < 40 && (run < 4 || (seen.skipped === 0 && seen.failedRuns === 0)); run++) {
      const r = spawnSync(process.execPath, [cli, 'apply', replyFile, '--root', root, '--json', '--no-stage'], { encoding: 'utf8', env: { ...process.env, EDITBLOCKS_STATE_DIR: state }, maxBuffer: 1 << 28 });
      seen.runs++;
      if (r.stdout.trim().startsWith('{')) {
        for (const x of JSON.parse(r.stdout).results) {
          if (x.status === 'applied') seen.applied++;
          if (x.status === 'skipped') {
            seen.skipped++;
            assert.equal(x.errorKind, 'path-escape', x.reason);
          }
        }
      } else {
        // A write refused after the read: the run failed closed and rolled back.
        seen.failedRuns++;
        assert.match(r.stderr, /refused .*symbolic link leads outside|changed by someone else/, r.stderr);
      }
    }
  } finally {
    await stop(swapper);
  }
  console.log(`cli race: ${JSON.stringify(seen)}`);
  assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written outside the root');
  assert.ok(seen.skipped > 0 || seen.failedRuns > 0, 'the race happened');
});

test('without /proc/self/fd the fallback still refuses a symlinked folder that leads outside', () => {
  const { outside, root, state } = arena('fallback');
  fs.rmSync(path.join(root, 'd'), { recursive: true });
  fs.symlinkSync(outside, path.join(root, 'd'));
  const host = nodeHost(root, { stateDir: state, race: 'check-paths' });
  assert.throws(() => host.writeFile('d/x.txt', 'x\n'), (e) => e.code === 'EDITBLOCKS_PATH_ESCAPE');
  assert.throws(() => host.readFile('d/x.txt'), (e) => e.code === 'EDITBLOCKS_PATH_ESCAPE');
  host.writeFile('e/x.txt', 'x\n');
  assert.equal(fs.readFileSync(path.join(root, 'e/x.txt'), 'utf8'), 'x\n');
  assert.deepEqual(fs.readdirSync(outside), []);
});
