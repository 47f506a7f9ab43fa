// The generated inputs and the timing shared by benches/patch.mjs and
// benches/patch-compare.mjs: both must measure the same cases the same way.
import { performance } from 'node:perf_hooks';

let seed = 11;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const words = ['value', 'count', 'result', 'items', 'index', 'config', 'path', 'name', 'total', 'user'];
const word = () => words[Math.floor(rand() * words.length)];
const codeLine = (f, i) => `${' '.repeat(4 * (i % 3))}let ${word()}_${f}_${i} = ${word()}(${i});`;

/** A file of `n` unique lines and `k` sections spread over it: the patch texts and the expected result. */
export function makeCase(f, n, k) {
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

export function memoryHost(files) {
  const store = new Map(Object.entries(files));
  return { store, readFile: (p) => (store.has(p) ? store.get(p) : null), writeFile: (p, c) => void store.set(p, c), deleteFile: (p) => void store.delete(p) };
}

// Per call: the fastest of 8 batches of at least minMs / 4 each, after a
// warm-up. On this shared machine a batch that another process slowed says
// nothing about the code; the fastest batch is the repeatable figure (both
// sides are timed the same way).
// With `cpu`, a batch counts this process's CPU time (process.cpuUsage)
// instead of the wall clock: on a loaded machine the time another process
// held the core is then left out (the collector's threads still count).
export function time(fn, minMs = 300, cpu = false) {
  for (let i = 0; i < 3; i++) fn();
  let best = Infinity;
  for (let batch = 0; batch < 8; batch++) {
    let runs = 0;
    const c0 = cpu ? process.cpuUsage() : null;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < minMs / 4) {
      fn();
      runs++;
      t = performance.now();
    }
    let spent = t - t0;
    if (cpu) {
      const c = process.cpuUsage(c0);
      spent = (c.user + c.system) / 1000;
    }
    best = Math.min(best, spent / runs);
  }
  return best;
}
