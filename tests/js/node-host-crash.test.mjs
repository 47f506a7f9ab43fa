// nodeHost killed with SIGKILL in the middle of a multi-file atomic apply,
// many times at random moments: the next nodeHost for the root rolls the
// interrupted run back, so every file is from the same side of the reply
// (all old or all new), and no temporary file is left in the worktree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEditsSync, nodeHost } from '../../pkg/node/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.join(here, '../../pkg/node/index.mjs');
const tmp = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `editblocks-${name}-`));
const FILES = ['a.txt', 'src/b.txt', 'src/deep/c.txt', 'd.txt', 'e.txt', 'f.txt'];
const KILLS = 100;

// Flips every file between `state: A` and `state: B` in one atomic apply, forever, once told
// to start: the parent starts the next applier (Node and the wasm module loading) while the
// current one runs, so the 100 kills do not wait for 100 start-ups one after another.
const APPLIER = `
import fs from 'node:fs';
import path from 'node:path';
const { applyEditsSync, nodeHost } = await import(process.argv[1]);
const [root, files] = process.argv.slice(2);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
let first = true;
for (;;) {
  const started = performance.now();
  const host = nodeHost(root);
  const cur = fs.readFileSync(path.join(root, 'a.txt'), 'utf8').startsWith('state: A') ? 'A' : 'B';
  const next = cur === 'A' ? 'B' : 'A';
  const blocks = files.split(',').map((f) => ({ format: 'edit-repl', filePath: f, anchor: '', oldLines: 'state: ' + cur, newLines: 'state: ' + next, trailingAnchor: '', rawBlock: '', lineNumber: 1 }));
  const r = applyEditsSync(blocks, host, { mode: 'atomic', stage: false });
  if (r.results.some((x) => x.status !== 'applied')) {
    process.stderr.write(JSON.stringify(r.results));
    process.exit(5);
  }
  // After one whole apply, say how long it took: the parent kills within the next ones.
  if (first) process.stdout.write(String(performance.now() - started) + '\\n');
  first = false;
}
`;

function states(root) {
  return FILES.map((f) => {
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    return text.startsWith('state: A\n') ? 'A' : text.startsWith('state: B\n') ? 'B' : `?${text.slice(0, 20)}`;
  });
}

function strays(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...strays(path.join(dir, e.name), p));
    else if (!FILES.includes(p)) out.push(p);
  }
  return out;
}

// An applier loaded and waiting to be told to start; its lines come out of `line()` in order.
function startApplier(root, state) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', APPLIER, pkg, root, FILES.join(',')], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, EDITBLOCKS_STATE_DIR: state },
  });
  let err = '';
  let out = '';
  const waiting = [];
  child.stderr.on('data', (d) => (err += d));
  const deliver = () => {
    for (let nl; waiting.length && (nl = out.indexOf('\n')) >= 0; out = out.slice(nl + 1)) waiting.shift()(out.slice(0, nl));
  };
  child.stdout.on('data', (d) => {
    out += d;
    deliver();
  });
  // Settles once the process is gone (reaped): only then may the parent recover its journal.
  const exited = new Promise((resolve, reject) =>
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the applier exited ${code}: ${err}`)))),
  );
  exited.catch(() => {});
  const line = () => Promise.race([new Promise((resolve) => (waiting.push(resolve), deliver())), exited.then(() => Promise.reject(new Error('the applier was killed early')))]);
  // The spare is killed at the end, maybe before it is ready: nobody waits for that.
  const ready = line();
  ready.catch(() => {});
  // Its exit says what went wrong; a write to its closed stdin says nothing more.
  child.stdin.on('error', () => {});
  return { child, exited, line, ready };
}

// Lets the applier run, and kills it within 1.2 applies of its first one: mid-apply, mostly.
async function runAndKill(applier) {
  assert.equal(await applier.ready, 'ready');
  applier.child.stdin.write('go\n');
  const ms = Number(await applier.line());
  setTimeout(() => applier.child.kill('SIGKILL'), Math.random() * 1.2 * ms);
  await applier.exited;
}

test(`SIGKILL mid-apply, ${KILLS} times: recovery leaves all-old or all-new and no temporary file`, async () => {
  const root = tmp('crash');
  const state = tmp('crash-state');
  const filler = Array.from({ length: 2000 }, (_, i) => `filler line ${i} ${'x'.repeat(20)}`).join('\n');
  for (const f of FILES) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), `state: A\n${filler}\n`);
  }
  const counts = { A: 0, B: 0, rolledBack: 0, nothingToDo: 0 };
  const started = performance.now();
  let last = 'A';
  let applier = startApplier(root, state);
  try {
    for (let i = 0; i < KILLS; i++) {
      const current = applier;
      // The next one loads while this one runs; it touches nothing in root or state until told to go.
      applier = startApplier(root, state);
      await runAndKill(current);
      const host = nodeHost(root, { stateDir: state });
      if (host.recovery.some((r) => /rolled back/.test(r))) counts.rolledBack++;
      else counts.nothingToDo++;
      const s = states(root);
      assert.ok(s.every((x) => x === s[0]) && (s[0] === 'A' || s[0] === 'B'), `kill ${i}: files are mixed after recovery: ${s.join(' ')}; ${host.recovery.join(' ')}`);
      assert.deepEqual(strays(root), [], `kill ${i}: files left in the worktree`);
      counts[s[0]]++;
      last = s[0];
      // The journal folder holds nothing more for this root once recovered.
      const journals = fs.readdirSync(path.join(state, 'journal'));
      assert.deepEqual(journals, [], `kill ${i}: journal left behind`);
    }
  } finally {
    // The spare, never told to go, has touched nothing.
    applier.child.kill('SIGKILL');
  }
  await applier.exited;
  const ms = Math.round(performance.now() - started);
  console.log(`crash: ${KILLS} kills, ${JSON.stringify(counts)}, ${ms} ms`);
  // The kills landed mid-apply: some runs were rolled back, and the files did flip.
  assert.ok(counts.rolledBack > 0, JSON.stringify(counts));
  assert.ok(counts.A > 0 && counts.B > 0, JSON.stringify(counts));
  // After recovery the reply applies cleanly.
  const next = last === 'A' ? 'B' : 'A';
  const r = applyEditsSync(FILES.map((f) => ({ format: 'edit-repl', filePath: f, anchor: '', oldLines: `state: ${last}`, newLines: `state: ${next}`, trailingAnchor: '', rawBlock: '', lineNumber: 1 })), nodeHost(root, { stateDir: state }), { mode: 'atomic', stage: false });
  assert.ok(r.results.every((x) => x.status === 'applied'));
});

// Runs `script` in a child that exits without ending its journal, as a killed run would.
function dyingRun(root, state, script) {
  const code = `const { nodeHost } = await import(process.argv[1]); const [root, state] = process.argv.slice(2); const host = nodeHost(root, { stateDir: state }); ${script}; process.exit(0);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code, pkg, root, state], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

test('an interrupted run is rolled back by the next nodeHost, and its temporary files removed', () => {
  const root = tmp('journal');
  const state = tmp('journal-state');
  fs.writeFileSync(path.join(root, 'a.txt'), 'old a\n');
  fs.writeFileSync(path.join(root, 'b.txt'), 'old b\n');
  // Dies after writing a.txt and creating new.txt, with b.txt's temporary file on disk.
  dyingRun(root, state, `
    host.readFile('a.txt'); host.readFile('b.txt'); host.readFile('new.txt');
    host.beginChanges(['a.txt', 'new.txt', 'b.txt']);
    host.writeFile('a.txt', 'new a\\n');
    host.writeFile('new.txt', 'created\\n');
    const fs = await import('node:fs');
    const journalDir = state + '/journal';
    const [j] = fs.readdirSync(journalDir).filter((f) => f.endsWith('.journal'));
    fs.appendFileSync(journalDir + '/' + j, JSON.stringify({ t: 'temp', path: '.b.txt.editblocks-' + process.pid + '-9-abcdef.tmp' }) + '\\n');
    fs.writeFileSync(root + '/.b.txt.editblocks-' + process.pid + '-9-abcdef.tmp', 'half');
  `);
  assert.deepEqual(fs.readdirSync(root).filter((f) => f.endsWith('.tmp')).length, 1);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'new a\n');
  const next = nodeHost(root, { stateDir: state });
  assert.equal(next.recovery.length, 1);
  assert.match(next.recovery[0], /^An editblocks run \(pid \d+\) was interrupted in .*; rolled back new\.txt, a\.txt\.$/);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'old a\n');
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'old b\n');
  assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt', 'b.txt']);
  // Recovered once: the next host has nothing to do.
  assert.deepEqual(nodeHost(root, { stateDir: state }).recovery, []);
});

// Earlier releases kept a root's journals in a folder of its own, named by the root's hash
// alone (the prefix of each journal's name now). What a killed run of such a release left is
// rolled back just the same, and the emptied folder removed.
test('a run killed under the per-root journal folder of earlier releases is rolled back', () => {
  const root = tmp('legacy');
  const state = tmp('legacy-state');
  fs.writeFileSync(path.join(root, 'a.txt'), 'old a\n');
  fs.writeFileSync(path.join(root, 'b.txt'), 'old b\n');
  dyingRun(root, state, `
    host.readFile('a.txt'); host.readFile('b.txt');
    host.beginChanges(['a.txt', 'b.txt']);
    host.writeFile('a.txt', 'new a\\n');
  `);
  const journalDir = path.join(state, 'journal');
  const left = fs.readdirSync(journalDir);
  const key = left[0].slice(0, left[0].indexOf('.'));
  assert.match(key, /^[0-9a-f]{24}$/);
  assert.ok(left.length >= 2 && left.every((n) => n.startsWith(`${key}.`)), left.join(' '));
  // The same run as an earlier release wrote it: the prefix is the folder, and the journal's
  // record of its backup has no prefix.
  const legacy = path.join(journalDir, key);
  fs.mkdirSync(legacy);
  for (const name of left) {
    let bytes = fs.readFileSync(path.join(journalDir, name), 'utf8');
    if (name.endsWith('.journal')) bytes = bytes.split(`"backup":"${key}.`).join('"backup":"');
    fs.writeFileSync(path.join(legacy, name.slice(key.length + 1)), bytes);
    fs.unlinkSync(path.join(journalDir, name));
  }
  // Another root's journal beside it is not this root's to touch.
  const other = `${'0'.repeat(24)}.1-x-1-1.journal`;
  fs.writeFileSync(path.join(journalDir, other), '{"t":"head","version":1,"root":"/elsewhere","pid":1,"start":""}\n');
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'new a\n');
  const next = nodeHost(root, { stateDir: state });
  assert.deepEqual(next.recovery.length, 1, next.recovery.join(' '));
  assert.match(next.recovery[0], /rolled back a\.txt\.$/);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'old a\n');
  assert.deepEqual(fs.readdirSync(journalDir), [other]);
});

// The journal is created empty and its head line written next: a kill between the two (likelier
// on a loaded machine) leaves a journal with no head, or a cut one. It holds nothing to roll back,
// and its writer is in its name: the next nodeHost removes it.
for (const [what, keep] of [['no head line', '0'], ['half a head line', 'Math.floor(fs.statSync(file).size / 2)']]) {
  test(`a journal killed with ${what} is removed by the next nodeHost`, () => {
    const root = tmp('headless');
    const state = tmp('headless-state');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    dyingRun(root, state, `
      host.readFile('a.txt');
      host.beginChanges(['a.txt', 'b.txt']);
      const fs = await import('node:fs');
      const journalDir = state + '/journal';
      const file = journalDir + '/' + fs.readdirSync(journalDir).find((f) => f.endsWith('.journal'));
      fs.truncateSync(file, ${keep});
    `);
    const journals = () => fs.readdirSync(path.join(state, 'journal'));
    assert.equal(journals().length, 1);
    const next = nodeHost(root, { stateDir: state });
    assert.deepEqual(next.recovery, []);
    assert.deepEqual(journals(), []);
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a\n');
  });
}

// The same with real kills: a child that does nothing but open and end journals is killed
// at random, so many kills land between a journal's creation and its head line.
test('SIGKILL while journals are opened and ended, 30 times: no journal is left behind', async () => {
  const root = tmp('openkill');
  const state = tmp('openkill-state');
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
  const code = `const { nodeHost } = await import(process.argv[1]); const host = nodeHost(process.argv[2], { stateDir: process.argv[3] }); process.stdout.write('go\\n'); for (;;) { host.beginChanges(['a.txt', 'b.txt']); host.endChanges(); }`;
  for (let i = 0; i < 30; i++) {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, pkg, root, state], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.on('exit', (status, signal) => resolve(signal)));
    await Promise.race([new Promise((resolve) => child.stdout.once('data', resolve)), exited]);
    setTimeout(() => child.kill('SIGKILL'), Math.random() * 20);
    assert.equal(await exited, 'SIGKILL');
    assert.deepEqual(nodeHost(root, { stateDir: state }).recovery, []);
    const journals = fs.readdirSync(path.join(state, 'journal'));
    assert.deepEqual(journals, [], `kill ${i}: journal left behind`);
  }
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a\n');
});

test('recovery leaves alone a file someone changed after the interrupted run, and says so', () => {
  const root = tmp('journal2');
  const state = tmp('journal2-state');
  fs.writeFileSync(path.join(root, 'a.txt'), 'old a\n');
  fs.writeFileSync(path.join(root, 'b.txt'), 'old b\n');
  dyingRun(root, state, `
    host.readFile('a.txt'); host.readFile('b.txt');
    host.beginChanges(['a.txt', 'b.txt']);
    host.writeFile('a.txt', 'new a\\n');
    host.writeFile('b.txt', 'new b\\n');
  `);
  fs.writeFileSync(path.join(root, 'b.txt'), 'edited by hand\n');
  const next = nodeHost(root, { stateDir: state });
  assert.match(next.recovery[0], /rolled back a\.txt; b\.txt was changed again after the interrupted run; left as it is\.$/);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'old a\n');
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'edited by hand\n');
});

test('a handled error leaves no temporary file in the worktree', () => {
  const root = tmp('handled');
  const state = tmp('handled-state');
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
  const host = nodeHost(root, { stateDir: state });
  // Someone makes a folder where b.txt is about to be created.
  const meddling = { ...host, writeFile: (p, c) => (p === 'b.txt' && fs.mkdirSync(path.join(root, 'b.txt')), host.writeFile(p, c)) };
  const blocks = [
    { format: 'edit-repl', filePath: 'a.txt', anchor: '', oldLines: 'a', newLines: 'A', trailingAnchor: '', rawBlock: '', lineNumber: 1 },
    { format: 'edit-repl', filePath: 'b.txt', anchor: '', oldLines: '', newLines: 'b', trailingAnchor: '', rawBlock: '', lineNumber: 1 },
  ];
  assert.throws(() => applyEditsSync(blocks, meddling, { stage: false }), /host\.writeFile\("b\.txt"\) failed: EISDIR: b\.txt is a folder, not a file\. Rolled back: a\.txt/);
  assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt', 'b.txt']);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a\n');
  assert.deepEqual(fs.readdirSync(path.join(state, 'journal')), []);
});

test('the CLI finishes what a killed run left before it applies, and says so', () => {
  const root = tmp('clirecover');
  const state = tmp('clirecover-state');
  fs.writeFileSync(path.join(root, 'a.txt'), 'old a\n');
  fs.writeFileSync(path.join(root, 'b.txt'), 'old b\n');
  dyingRun(root, state, `
    host.readFile('a.txt'); host.readFile('b.txt');
    host.beginChanges(['a.txt', 'b.txt']);
    host.writeFile('a.txt', 'new a\\n');
  `);
  const reply = path.join(state, 'reply.md');
  fs.writeFileSync(reply, 'b.txt\n««« EDIT\nold b\n═══════ REPL\nnewer b\n»»» EDIT END\n');
  const cli = path.join(here, '../../pkg/bin/editblocks.mjs');
  const r = spawnSync(process.execPath, [cli, 'apply', reply, '--root', root, '--no-stage', '--no-color'], { encoding: 'utf8', env: { ...process.env, EDITBLOCKS_STATE_DIR: state } });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stderr, /^editblocks: An editblocks run \(pid \d+\) was interrupted in .*; rolled back a\.txt\.\n$/);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'old a\n');
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'newer b\n');
});
