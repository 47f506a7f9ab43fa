#!/usr/bin/env node
// `editblocks mcp` (the built package's CLI, pkg/bin) beside the reference
// filesystem server (@modelcontextprotocol/server-filesystem), both driven by
// the MCP SDK's Client over stdio in the same run:
//
// 1. what each does with the same edits (a feature table: refused or applied,
//    bytes kept, what the answer holds);
// 2. the round-trip latency of one edit (call sent → answer read, the file
//    written), p50 and p90 over many calls on the same 400-line file, the
//    servers taking turns so that all see the same machine load: editblocks
//    as it starts by default (each new file flushed to the disk before the
//    rename), with --no-flush (like the reference, which does not flush),
//    and the reference.
//
// Usage: node scripts/build.mjs && node benches/mcp.mjs [--calls N] [--against <other pkg/>]
// --against adds the other build's server (with --no-flush) to the rotation: an A/B of two
// builds in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const callsArg = process.argv.indexOf('--calls');
const CALLS = callsArg > 0 ? Number(process.argv[callsArg + 1]) : 1000;
const againstArg = process.argv.indexOf('--against');
const against = againstArg > 0 ? path.resolve(process.argv[againstArg + 1]) : null;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-bench-mcp-'));
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-bench-mcp-state-'));

const lines = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? `function step${i}(value) {` : i % 4 === 3 ? '}' : `    const item${i} = value * ${i};`));

function folder(name, files) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return fs.realpathSync(dir);
}

async function connect(command, args) {
  const client = new Client({ name: 'editblocks-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: { ...process.env, EDITBLOCKS_STATE_DIR: stateDir }, stderr: 'ignore' }));
  return client;
}

const servers = {
  editblocks: {
    start: (dir) => connect(process.execPath, [path.join(root, 'pkg', 'bin', 'editblocks.mjs'), 'mcp', '--root', dir]),
    replace: (dir, file, oldText, newText) => ({ name: 'str_replace', arguments: { path: file, old_str: oldText, new_str: newText } }),
    create: (dir, file, text) => ({ name: 'create', arguments: { path: file, file_text: text } }),
  },
  // The same server not waiting for the disk before each rename, as the reference writes.
  'editblocks --no-flush': {
    start: (dir) => connect(process.execPath, [path.join(root, 'pkg', 'bin', 'editblocks.mjs'), 'mcp', '--root', dir, '--no-flush']),
    replace: (dir, file, oldText, newText) => ({ name: 'str_replace', arguments: { path: file, old_str: oldText, new_str: newText } }),
    create: (dir, file, text) => ({ name: 'create', arguments: { path: file, file_text: text } }),
  },
  ...(against && {
    'other build --no-flush': {
      start: (dir) => connect(process.execPath, [path.join(against, 'bin', 'editblocks.mjs'), 'mcp', '--root', dir, '--no-flush']),
      replace: (dir, file, oldText, newText) => ({ name: 'str_replace', arguments: { path: file, old_str: oldText, new_str: newText } }),
      create: (dir, file, text) => ({ name: 'create', arguments: { path: file, file_text: text } }),
    },
  }),
  reference: {
    start: (dir) => connect(process.execPath, [path.join(root, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), dir]),
    replace: (dir, file, oldText, newText) => ({ name: 'edit_file', arguments: { path: path.join(dir, file), edits: [{ oldText, newText }] } }),
    create: (dir, file, text) => ({ name: 'write_file', arguments: { path: path.join(dir, file), content: text } }),
  },
};

const text = (answer) => (answer.content || []).map((c) => c.text).join('\n');

// ---- 1. The same edits through both ----

const outside = folder('outside', { 'secret.txt': 'secret\n' });
const probes = [
  {
    what: 'old text twice in the file',
    files: { 'a.js': 'let x = 1;\nfoo();\nlet y = 2;\nfoo();\n' },
    run: (s, dir) => s.replace(dir, 'a.js', 'foo();', 'bar();'),
    file: 'a.js',
  },
  {
    what: 'old text with the wrong indentation',
    files: { 'a.py': 'def f():\n    if x:\n        return 1\n' },
    run: (s, dir) => s.replace(dir, 'a.py', 'if x:\n    return 1', 'if x:\n    return 2'),
    file: 'a.py',
  },
  {
    what: 'old text not in the file',
    files: { 'a.js': 'const greeting = "hello";\n' },
    run: (s, dir) => s.replace(dir, 'a.js', 'const greeting = "helo";', 'const greeting = "hi";'),
    file: 'a.js',
  },
  {
    what: 'CRLF file with a BOM',
    files: { 'w.txt': '\ufeffone\r\ntwo\r\n' },
    run: (s, dir) => s.replace(dir, 'w.txt', 'two', 'TWO'),
    file: 'w.txt',
  },
  {
    what: 'write into .git/',
    files: { '.git/config': '[core]\n' },
    run: (s, dir) => s.replace(dir, '.git/config', '[core]', '[core]\n\thooksPath = /tmp/hooks'),
    file: '.git/config',
  },
  {
    what: 'write through a symlink out of the root',
    files: { 'keep.txt': 'x\n' },
    setup: (dir) => fs.symlinkSync(outside, path.join(dir, 'link'), 'dir'),
    run: (s, dir) => s.create(dir, 'link/planted.txt', 'planted\n'),
    check: () => (fs.existsSync(path.join(outside, 'planted.txt')) ? (fs.unlinkSync(path.join(outside, 'planted.txt')), 'written outside') : 'nothing outside'),
  },
];

function verdict(answer, before, after) {
  if (answer.isError) return `refused${before === after ? ', file unchanged' : ', FILE CHANGED'}`;
  return after === before ? 'answered ok, nothing changed' : 'applied';
}

const table = [];
for (const probe of probes) {
  const row = { what: probe.what };
  for (const [name, s] of Object.entries(servers)) {
    if (name.includes('--no-flush')) continue; // the same answers as the default
    const dir = folder(`probe-${table.length}-${name.replace(/\W+/g, '-')}`, probe.files);
    if (probe.setup) probe.setup(dir);
    const client = await s.start(dir);
    const read = () => (probe.file && fs.existsSync(path.join(dir, probe.file)) ? fs.readFileSync(path.join(dir, probe.file), 'latin1') : null);
    const before = read();
    const answer = await client.callTool(probe.run(s, dir));
    const after = read();
    let cell = probe.check ? `${answer.isError ? 'refused' : 'answered ok'}, ${probe.check()}` : verdict(answer, before, after);
    if (probe.what.startsWith('CRLF') && !answer.isError) cell += after === '\xef\xbb\xbfone\r\nTWO\r\n' ? ', BOM and CRLF kept' : `, bytes now ${JSON.stringify(after)}`;
    const t = text(answer);
    const shows = [/^\s*\d+\t/m.test(t) ? 'numbered lines' : null, /^@@ /m.test(t) ? 'diff' : null].filter(Boolean);
    if (shows.length) cell += ` (answer: ${shows.join(' + ')})`;
    row[name] = cell;
    await client.close();
  }
  table.push(row);
}
console.log('Same edits, both servers (what each does):\n');
console.log('| edit | editblocks mcp | reference server-filesystem |');
console.log('|---|---|---|');
for (const row of table) console.log(`| ${row.what} | ${row.editblocks} | ${row.reference} |`);

// ---- 2. Round-trip latency per edit ----

const body = lines.join('\n') + '\n';
const clients = {};
const dirs = {};
for (const [name, s] of Object.entries(servers)) {
  dirs[name] = folder(`latency-${name.replace(/\W+/g, '-')}`, { 'src/app.js': body });
  clients[name] = await s.start(dirs[name]);
}
const times = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
// Each call changes one line and the next puts it back: the file stays the same size.
const editOf = (i) => {
  const line = 1 + 4 * (Math.floor(i / 2) % 99);
  const was = lines[line];
  return i % 2 === 0 ? [was, `${was} // edited`] : [`${was} // edited`, was];
};
const WARMUP = 50;
for (let i = 0; i < CALLS + WARMUP; i++) {
  const [oldText, newText] = editOf(i); // the same edit for both servers
  // The servers take turns in a rotating order, so none always goes first.
  const names = Object.keys(servers);
  const order = names.map((_, k) => names[(i + k) % names.length]);
  for (const name of order) {
    const request = servers[name].replace(dirs[name], 'src/app.js', oldText, newText);
    const t0 = performance.now();
    const answer = await clients[name].callTool(request);
    const dt = performance.now() - t0;
    if (answer.isError) throw new Error(`${name}: edit ${i} refused: ${text(answer)}`);
    if (i >= WARMUP) times[name].push(dt);
  }
}
for (const c of Object.values(clients)) await c.close();
const finalBodies = Object.values(dirs).map((d) => fs.readFileSync(path.join(d, 'src/app.js'), 'utf8'));
if (new Set(finalBodies).size !== 1) throw new Error('the servers ended with different files');

const pct = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];
const ms = (v) => `${v.toFixed(2)} ms`;
console.log(`\nRound trip per edit (str_replace / edit_file on a ${lines.length}-line file, ${CALLS} calls each, servers alternating):\n`);
console.log('| server | p50 | p90 |');
console.log('|---|---|---|');
for (const name of Object.keys(servers)) console.log(`| ${name} | ${ms(pct(times[name], 50))} | ${ms(pct(times[name], 90))} |`);
const ratio = (name) => (pct(times[name], 50) / pct(times.reference, 50)).toFixed(2);
console.log(`\np50 against the reference: editblocks ${ratio('editblocks')}x (it waits for the disk before each rename; the reference does not), editblocks --no-flush ${ratio('editblocks --no-flush')}x (like for like)${against ? `, the other build --no-flush ${ratio('other build --no-flush')}x` : ''}`);
fs.rmSync(scratch, { recursive: true, force: true });
