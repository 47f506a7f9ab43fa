// node benches/parse.mjs — parser throughput through the JS API of the built
// package (run `node scripts/build.mjs` first; the release build is what we
// report). Prints, in one run:
//   - one-shot parseEdits on a generated reply of >= 4 MB with 20,000 blocks;
//   - EditStream fed 64-byte chunks, at 1, 2 and 4 MB (linear: MB/s stays flat);
//   - the common alternative chat UIs use: re-parse the whole accumulated
//     text with parseEdits on every 64-byte chunk (run on a prefix and
//     extrapolated: its cost grows with the square of the length).
import { parseEdits, EditStream } from '../pkg/node/index.mjs';

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
