// node benches/parse.mjs — parser throughput through the JS API of the built
// package (run `node scripts/build.mjs` first; the release build is what we
// report; `--against DIR [--cpu]` adds an A/B with another build, see the end).
// Prints, in one run:
//   - one-shot parseEdits on a generated reply of >= 4 MB with 20,000 blocks;
//   - EditStream fed 64-byte chunks, at 1, 2 and 4 MB (linear: MB/s stays flat);
//   - the common alternative chat UIs use: re-parse the whole accumulated
//     text with parseEdits on every 64-byte chunk (run on a prefix and
//     extrapolated: its cost grows with the square of the length);
//   - on a reply of SEARCH/REPLACE blocks only (>= 4 MB): parseEdits one shot
//     and EditStream in 64-byte chunks, against the same reply parsed by a
//     plain JavaScript line parser (what an app writes itself) and by aider's
//     find_original_update_blocks (aider-chat in .bench-venv/, as in
//     benches/apply.mjs; see benches/aider_parse.py), and the ratios.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseEdits, EditStream } from '../pkg/node/index.mjs';
import { inTurn } from './in-turn.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const FORMATS = ['edit-repl', 'anchored', 'search-replace'];
function block(i) {
  const f = FORMATS[i % 3];
  const path = `src/module_${i % 97}/file_${i}.py`;
  const lines = (tag) => [`def function_${i}(arg):`, `    value = compute_${tag}(arg, ${i})`, `    return value  # ${'x'.repeat(i % 40)}`];
  const prose = `Step ${i}: update function_${i} so it uses the new helper and keeps the old behaviour.\n\n`;
  if (f === 'edit-repl') return `${prose}${path}\n««« EDIT\n${lines('old').join('\n')}\n═══════ REPL\n${lines('new').join('\n')}\n»»» EDIT END\n\n`;
  if (f === 'anchored') return `${prose}${path}\n««« EDIT\n${lines('a')[0]}\n───────\n${lines('old')[1]}\n═══════\n${lines('new')[1]}\n───────\n${lines('a')[2]}\n»»»\n\n`;
  return `${prose}${path}\n\`\`\`python\n<<<<<<< SEARCH\n${lines('old').join('\n')}\n=======\n${lines('new').join('\n')}\n>>>>>>> REPLACE\n\`\`\`\n\n`;
}
function reply(blocks) {
  const parts = [];
  for (let i = 0; i < blocks; i++) parts.push(block(i));
  return parts.join('');
}

const MB = 1024 * 1024;
const mb = (s) => Buffer.byteLength(s) / MB;
function time(fn, minMs = 400) {
  fn(); // warm up
  let runs = 0;
  const start = performance.now();
  let now = start;
  do {
    fn();
    runs++;
    now = performance.now();
  } while (now - start < minMs);
  return (now - start) / runs;
}
function streamAll(text, size) {
  const s = new EditStream();
  let n = 0;
  for (let i = 0; i < text.length; i += size) {
    for (const e of s.feed(text.slice(i, i + size))) if (e.type === 'block-complete') n++;
  }
  for (const e of s.finish()) if (e.type === 'block-complete') n++;
  return n;
}

let text = reply(20000);
let count = 20000;
while (mb(text) < 4) text += block(count++);
const size = mb(text);
const blocks = parseEdits(text).length;
if (blocks !== count) throw new Error(`expected ${count} blocks, parsed ${blocks}`);
if (streamAll(text, 64) !== count) throw new Error('the stream found a different number of blocks');

console.log(`reply: ${size.toFixed(2)} MB, ${count} blocks (edit-repl, anchored, search-replace in turn)`);
const oneShot = time(() => parseEdits(text));
console.log(`editblocks parseEdits, one shot:            ${(size / (oneShot / 1000)).toFixed(1)} MB/s  (${oneShot.toFixed(1)} ms)`);
// Linear: the same MB/s at every length (no re-scan of consumed text).
for (const want of [1, 2, 4, size]) {
  let t = text;
  if (want < size) {
    t = text.slice(0, Math.round((text.length * want) / size));
    t = t.slice(0, t.lastIndexOf('\n') + 1);
  }
  const ms = time(() => streamAll(t, 64));
  console.log(`editblocks EditStream, 64-byte chunks, ${mb(t).toFixed(1)} MB: ${(mb(t) / (ms / 1000)).toFixed(1)} MB/s  (${ms.toFixed(1)} ms)`);
}

// The alternative: parseEdits(accumulated) after every 64-byte chunk.
function reparse(t, size) {
  let n = 0;
  for (let i = size; i < t.length + size; i += size) n = parseEdits(t.slice(0, Math.min(i, t.length))).length;
  return n;
}
const results = [];
for (const kb of [64, 128, 256]) {
  const t = text.slice(0, kb * 1024);
  const ms = time(() => reparse(t, 64), 200);
  results.push({ kb, ms });
  console.log(`re-parse whole text per 64-byte chunk, ${kb} KB: ${(mb(t) / (ms / 1000)).toFixed(2)} MB/s  (${ms.toFixed(0)} ms)`);
}
// Quadratic: time scales with length squared; extrapolate from the largest measured prefix.
const last = results.at(-1);
const est = last.ms * (size / (last.kb / 1024)) ** 2;
console.log(`re-parse whole text per 64-byte chunk, ${size.toFixed(1)} MB: ~${(est / 1000).toFixed(0)} s, ~${(size / (est / 1000)).toFixed(3)} MB/s (extrapolated as length², from ${last.kb} KB)`);

// SEARCH/REPLACE blocks only, the format every peer below reads.
function searchReplaceBlock(i) {
  const path = `src/module_${i % 97}/file_${i}.py`;
  const lines = (tag) => [`def function_${i}(arg):`, `    value = compute_${tag}(arg, ${i})`, `    return value  # ${'x'.repeat(i % 40)}`];
  const prose = `Step ${i}: update function_${i} so it uses the new helper and keeps the old behaviour.\n\n`;
  return `${prose}${path}\n\`\`\`python\n<<<<<<< SEARCH\n${lines('old').join('\n')}\n=======\n${lines('new').join('\n')}\n>>>>>>> REPLACE\n\`\`\`\n\n`;
}
const srParts = [];
let srBytes = 0;
while (srBytes < 4 * MB) {
  const b = searchReplaceBlock(srParts.length);
  srParts.push(b);
  srBytes += Buffer.byteLength(b);
}
const srText = srParts.join('');
const srCount = srParts.length;
const srSize = mb(srText);

// What an app writes itself: split into lines, the file name is the last
// line before the block that is neither blank nor a fence, then collect the
// SEARCH and REPLACE lines between the markers.
function plainLineParse(text) {
  const lines = text.split('\n');
  const edits = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trimEnd() !== '<<<<<<< SEARCH') continue;
    let j = i - 1;
    while (j >= 0 && i - j <= 3 && (lines[j].trim() === '' || lines[j].startsWith('```'))) j--;
    const file = j >= 0 ? lines[j].trim() : null;
    const search = [];
    for (i++; i < lines.length && lines[i].trimEnd() !== '======='; i++) search.push(lines[i]);
    const replace = [];
    for (i++; i < lines.length && lines[i].trimEnd() !== '>>>>>>> REPLACE'; i++) replace.push(lines[i]);
    if (i >= lines.length) break;
    edits.push({ file, search: search.join('\n') + '\n', replace: replace.join('\n') + '\n' });
  }
  return edits;
}

function aiderPython() {
  const venv = path.join(root, '.bench-venv');
  const py = path.join(venv, 'bin', 'python');
  if (spawnSync('python3', ['--version']).status !== 0) return { skip: 'python3 is not installed' };
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

const srBlocks = parseEdits(srText);
if (srBlocks.length !== srCount) throw new Error(`expected ${srCount} SEARCH/REPLACE blocks, parsed ${srBlocks.length}`);
if (plainLineParse(srText).length !== srCount) throw new Error('the plain line parser found a different number of blocks');
if (streamAll(srText, 64) !== srCount) throw new Error('the stream found a different number of SEARCH/REPLACE blocks');

console.log(`\nreply: ${srSize.toFixed(2)} MB, ${srCount} SEARCH/REPLACE blocks`);
// Five rounds, the three taken in turn, each figure the median: measured one
// after the other, whichever ran first met a different heap (the blocks the
// others left to collect) and the ratios moved by half.
const rounds = { oneShot: [], stream: [], plain: [] };
for (let round = 0; round < 5; round++) {
  rounds.oneShot.push(time(() => parseEdits(srText)));
  rounds.stream.push(time(() => streamAll(srText, 64)));
  rounds.plain.push(time(() => plainLineParse(srText)));
}
const medianMs = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const srOneShot = srSize / (medianMs(rounds.oneShot) / 1000);
const srStream = srSize / (medianMs(rounds.stream) / 1000);
const srPlain = srSize / (medianMs(rounds.plain) / 1000);
console.log(`editblocks parseEdits, one shot:          ${srOneShot.toFixed(1)} MB/s  (median of 5 rounds, the three in turn)`);
console.log(`editblocks EditStream, 64-byte chunks:    ${srStream.toFixed(1)} MB/s`);
console.log(`plain JavaScript line parser:             ${srPlain.toFixed(1)} MB/s`);
const peer = aiderPython();
let srAider = null;
if (peer.skip) {
  console.log(`aider find_original_update_blocks: skipped (${peer.skip})`);
} else {
  const out = spawnSync(peer.py, [path.join(root, 'benches', 'aider_parse.py')], {
    input: JSON.stringify({ reply: srText, min_ms: 2000 }), encoding: 'utf8', maxBuffer: 1 << 30,
  });
  if (out.status !== 0) throw new Error(`aider peer failed: ${out.stderr}`);
  const got = JSON.parse(out.stdout);
  if (got.blocks !== srCount) throw new Error(`aider found ${got.blocks} blocks, expected ${srCount}`);
  srAider = srSize / (got.ms / 1000);
  console.log(`aider ${peer.version} find_original_update_blocks: ${srAider.toFixed(2)} MB/s  (${got.runs} runs)`);
}
console.log(`one shot / plain JS line parser: ${(srOneShot / srPlain).toFixed(2)}×`);
console.log(srAider ? `one shot / aider: ${(srOneShot / srAider).toFixed(1)}×` : 'one shot / aider: skipped');
console.log(`streamed / one shot: ${(srStream / srOneShot).toFixed(2)}×`);

// --against DIR: another built package (its pkg/ folder) loaded in this
// process, both timed in turn on the same two replies, three rounds: the
// A/B of a change. With --cpu, each call's CPU time instead (the median of
// 15 calls taken in turn with the other build's and the plain parser's), so
// that another process on the machine moves the figures less.
const againstAt = process.argv.indexOf('--against');
if (againstAt > 0) {
  const dir = process.argv[againstAt + 1];
  const other = await import(pathToFileURL(path.resolve(dir, 'node', 'index.mjs')).href);
  const builds = [[dir, other], ['this build', { parseEdits, EditStream }]];
  if (process.argv.includes('--cpu')) {
    const cpuMs = (fn) => {
      const start = process.cpuUsage();
      fn();
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    const streamWith = (api) => {
      const s = new api.EditStream();
      for (let i = 0; i < srText.length; i += 64) s.feed(srText.slice(i, i + 64));
      s.finish();
    };
    const taken = new Map();
    const take = (name, ms) => taken.set(name, [...(taken.get(name) ?? []), ms]);
    for (let round = 0; round < 15; round++) {
      for (const [name, api] of inTurn(builds, round)) {
        take(`${name} one shot`, cpuMs(() => api.parseEdits(srText)));
        take(`${name} streamed`, cpuMs(() => streamWith(api)));
      }
      take('plain JavaScript line parser', cpuMs(() => plainLineParse(srText)));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    console.log(`\nSEARCH/REPLACE reply, CPU time per call (median of 15, in turn), against ${dir}:`);
    for (const [name, xs] of taken) console.log(`  ${name.padEnd(40)} ${median(xs).toFixed(1)} ms  ${(srSize / (median(xs) / 1000)).toFixed(1)} MB/s`);
    const plain = median(taken.get('plain JavaScript line parser'));
    for (const [name] of builds) {
      const one = median(taken.get(`${name} one shot`));
      const streamed = median(taken.get(`${name} streamed`));
      console.log(`  ${name}: one shot ${(plain / one).toFixed(2)}× the plain parser, streamed ${(one / streamed).toFixed(2)}× one shot`);
    }
  } else {
    console.log(`\nparseEdits, one shot, against ${dir}:`);
    for (let round = 1; round <= 3; round++) {
      for (const [name, api] of inTurn(builds, round - 1)) {
        const mixed = size / (time(() => api.parseEdits(text)) / 1000);
        const sr = srSize / (time(() => api.parseEdits(srText)) / 1000);
        console.log(`  round ${round}  ${name.padEnd(24)} mixed ${mixed.toFixed(1)} MB/s, SEARCH/REPLACE ${sr.toFixed(1)} MB/s`);
      }
    }
  }
}
