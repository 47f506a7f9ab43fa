// Writes the seed corpus of each fuzz target (fuzz/corpus/<target>/) from the
// test fixtures: a flags byte, then the parts separated by 0xFF, as
// fuzz_targets/common.rs reads them. Run once when fixtures change:
//   node fuzz/seed.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'tests', 'fixtures');
const corpus = path.join(root, 'fuzz', 'corpus');
const MAX = 4096; // keep the corpus small: each part is cut to this many bytes

const cut = (buf) => buf.subarray(0, MAX);
const input = (flags, parts) => Buffer.concat([Buffer.from([flags]), ...parts.flatMap((p, i) => (i ? [Buffer.from([0xff]), cut(p)] : [cut(p)]))]);
const firstFile = (dir) => {
  if (!fs.existsSync(dir)) return Buffer.alloc(0);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) return fs.readFileSync(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  return Buffer.alloc(0);
};
const seeds = { parser: [], apply_text: [], tool_calls: [], hashline: [], diff_render: [] };

for (const f of fs.readdirSync(path.join(fixtures, 'parser')).filter((f) => f.endsWith('.md'))) {
  seeds.parser.push([f, input(0, [fs.readFileSync(path.join(fixtures, 'parser', f))])]);
}
for (const d of fs.readdirSync(path.join(fixtures, 'engine'))) {
  const reply = path.join(fixtures, 'engine', d, 'reply.md');
  if (fs.existsSync(reply)) seeds.apply_text.push([d, input(d.length % 64, [fs.readFileSync(reply), firstFile(path.join(fixtures, 'engine', d, 'before'))])]);
}
for (const d of fs.readdirSync(path.join(fixtures, 'tools'), { withFileTypes: true }).filter((e) => e.isDirectory())) {
  const dir = path.join(fixtures, 'tools', d.name);
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.calls.json'))) {
    seeds.tool_calls.push([`${d.name}-${f}`, input(0, [fs.readFileSync(path.join(dir, f)), firstFile(path.join(dir, 'before'))])]);
  }
}
for (const d of fs.readdirSync(path.join(fixtures, 'hashline'), { withFileTypes: true }).filter((e) => e.isDirectory())) {
  const call = path.join(fixtures, 'hashline', d.name, 'call.json');
  if (fs.existsSync(call)) seeds.hashline.push([d.name, input(0x60, [fs.readFileSync(call), firstFile(path.join(fixtures, 'hashline', d.name, 'before'))])]);
}
for (const f of fs.readdirSync(path.join(fixtures, 'render', 'diff'))) {
  // Old and new texts of a diff fixture: its `=== old` and `=== new` sections.
  const sections = {};
  let name = null;
  for (const line of fs.readFileSync(path.join(fixtures, 'render', 'diff', f), 'utf8').split('\n')) {
    const m = /^=== (\w+)$/.exec(line);
    if (m) sections[(name = m[1])] = [];
    else if (name) sections[name].push(line);
  }
  const halves = [sections.old?.join('\n'), sections.new?.join('\n')];
  seeds.diff_render.push([f, input(0x44, [Buffer.from(halves[0] ?? ''), Buffer.from(halves[1] ?? ''), Buffer.from('src/a.txt')])]);
}

// Many edits to one file in one call, as tool_calls.rs reads a text of 16
// lines or more: each two lines an old and a new text, the last pair finding
// what an earlier edit wrote.
{
  const lines = [];
  for (let i = 0; i < 12; i++) lines.push(`value_${i} = compute(`, `value_${i} = compute2(`);
  lines.push('value_3 = compute2(3)', 'value_3 = compute(11)');
  const file = Array.from({ length: 14 }, (_, i) => `    let value_${i} = compute(${i});`).join('\r\n') + '\n';
  seeds.tool_calls.push(['batched-edits-one-file', input(0x08, [Buffer.from(lines.join('\n')), Buffer.from(file)])]);
}

fs.rmSync(corpus, { recursive: true, force: true });
let total = 0;
for (const [target, list] of Object.entries(seeds)) {
  fs.mkdirSync(path.join(corpus, target), { recursive: true });
  for (const [name, data] of list) {
    fs.writeFileSync(path.join(corpus, target, `seed-${name.replace(/[^\w.-]/g, '_')}`), data);
    total += data.length;
  }
  console.log(`${target}: ${list.length} seeds`);
}
console.log(`corpus: ${(total / 1024).toFixed(0)} KiB`);
