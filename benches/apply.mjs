#!/usr/bin/env node
// Benchmark: applying edit blocks through the JS API (node scripts/build.mjs first).
//
//   node benches/apply.mjs
//
// Two kinds of work, each at 250, 500 and 1,000 edits, so the growth shows:
//   one file:   N sequential edits to one 50,000-line file (one reply, one applyEditsSync call)
//   many files: N files of 50 lines with one edit each
// Hosts are in memory (a Map), so the figures are the engine's, not the disk's.
//
// In the same run, the same edits through aider's do_replace (aider-chat,
// `pip install --no-deps` into .bench-venv/, created on first run) when
// python3 is present; see benches/aider_replace.py. Both sides must end with
// identical files (compared by digest).
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEditsSync } from '../pkg/node/index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [250, 500, 1000];

const func = (i, op = '+') => `def func_${i}(x):\n    """Function ${i}."""\n    y = x ${op} ${i}\n    return y\n\n`;

// N edits spread evenly over a 10,000-function (50,000-line) file.
function oneFileWork(n) {
  const content = Array.from({ length: 10000 }, (_, i) => func(i)).join('');
  const step = Math.floor(10000 / n);
  const targets = Array.from({ length: n }, (_, k) => k * step);
  return { name: `one file, ${n} edits`, n, files: { 'src/big.py': content }, targets: targets.map((i) => ['src/big.py', i]) };
}

// N files of 10 functions (50 lines) with one edit each.
function manyFilesWork(n) {
  const files = {};
  const targets = [];
  for (let f = 0; f < n; f++) {
    const p = `src/mod_${f}.py`;
    files[p] = Array.from({ length: 10 }, (_, i) => func(f * 10 + i)).join('');
    targets.push([p, f * 10 + (f % 10)]);
  }
  return { name: `${n} files, 1 edit each`, n, files, targets };
}

const blockFor = ([filePath, i]) => ({
  format: 'edit-repl', filePath,
  anchor: `def func_${i}(x):\n    """Function ${i}."""`,
  oldLines: `    y = x + ${i}`,
  newLines: `    y = x * ${i}`,
  trailingAnchor: '', rawBlock: '', lineNumber: 0,
});

const digest = (files) => crypto.createHash('sha256').update(Object.keys(files).sort().map((p) => files[p]).join('\0')).digest('hex');

function runOurs(work) {
  const blocks = work.targets.map(blockFor);
  let best = Infinity;
  let files;
  for (let rep = 0; rep < 3; rep++) {
    files = { ...work.files };
    const host = { readFile: (p) => files[p] ?? null, writeFile: (p, c) => { files[p] = c; } };
    const t0 = process.hrtime.bigint();
    const result = applyEditsSync(blocks, host, { stage: false });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const failed = result.results.filter((r) => r.status !== 'applied').length;
    if (failed) throw new Error(`${work.name}: ${failed} edits did not apply: ${result.results.find((r) => r.status !== 'applied').reason}`);
    best = Math.min(best, ms);
  }
  return { ms: best, digest: digest(files) };
}

function aiderPython() {
  const venv = path.join(root, '.bench-venv');
  const py = path.join(venv, 'bin', 'python');
  const hasPython = spawnSync('python3', ['--version']).status === 0;
  if (!hasPython) return { skip: 'python3 is not installed' };
  try {
    if (!fs.existsSync(py)) execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore' });
    if (spawnSync(py, ['-c', 'import importlib.util,sys; sys.exit(importlib.util.find_spec("aider") is None)']).status !== 0) {
      console.log('installing aider-chat (pip install --no-deps) into .bench-venv …');
      execFileSync(py, ['-m', 'pip', 'install', '-q', '--no-deps', 'aider-chat'], { stdio: 'inherit' });
    }
    const version = execFileSync(py, ['-c', 'import importlib.metadata as m; print(m.version("aider-chat"))'], { encoding: 'utf8' }).trim();
    return { py, version };
  } catch (e) {
    return { skip: `could not install aider-chat: ${e.message}` };
  }
}

function runAider(py, works) {
  const job = {
    runs: works.map((w) => ({
      name: w.name,
      files: w.files,
      edits: w.targets.map((t) => {
        const b = blockFor(t);
        return [t[0], `${b.anchor}\n${b.oldLines}\n`, `${b.anchor}\n${b.newLines}\n`];
      }),
    })),
  };
  const out = spawnSync(py, [path.join(root, 'benches', 'aider_replace.py')], { input: JSON.stringify(job), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`aider peer failed: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

const works = [...SIZES.map(oneFileWork), ...SIZES.map(manyFilesWork)];
console.log('editblocks apply benchmark (in-memory host, best of 3 for editblocks, 1 run for aider)\n');
const ours = works.map(runOurs);
const peer = aiderPython();
let theirs = null;
if (peer.py) {
  theirs = runAider(peer.py, works);
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const header = ['work', 'edits', 'editblocks', 'µs/edit', theirs ? `aider ${peer.version} do_replace` : 'aider', theirs ? 'µs/edit' : '', theirs ? 'same files' : ''];
const rows = works.map((w, i) => {
  const o = ours[i];
  const t = theirs && theirs[w.name];
  return [
    w.name, String(w.n), fmt(o.ms), ((o.ms * 1000) / w.n).toFixed(0),
    t ? fmt(t.ms) : peer.skip ? 'skipped' : '', t ? ((t.ms * 1000) / w.n).toFixed(0) : '',
    t ? (t.failed ? `${t.failed} failed` : t.digest === o.digest ? 'yes' : 'NO') : '',
  ];
});
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const line = (cells) => cells.map((cell, c) => (c < 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));

for (const kind of ['one file', 'files']) {
  const idx = works.map((w, i) => (w.name.includes(kind) ? i : -1)).filter((i) => i >= 0);
  const growth = (list) => (list[idx[2]].ms / list[idx[0]].ms).toFixed(2);
  const theirsList = theirs && works.map((w) => theirs[w.name]);
  console.log(`\n${kind === 'one file' ? 'one 50,000-line file' : 'one edit per file'}: 4× the edits (250 → 1,000) took ${growth(ours)}× the time with editblocks` +
    (theirsList ? `, ${growth(theirsList)}× with aider` : ''));
}
if (peer.skip) console.log(`\naider peer skipped: ${peer.skip}`);
