// The packed tarball as agents use it: `editblocks mcp` driven by the MCP
// SDK's own Client (stdio, and Streamable HTTP) against real folders and a
// git repository, and `editblocks/ai-sdk` driven by the `ai` package's
// generateText with its own mock model. The SDKs are this repository's
// pinned dev dependencies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-agents-'));
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-agents-state-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let consumer;
let cli;
const clients = [];

before(() => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  const tarball = path.join(scratch, JSON.parse(out)[0].filename);
  consumer = path.join(scratch, 'consumer');
  fs.mkdirSync(consumer);
  fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'agents-consumer', private: true, type: 'module' }));
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], consumer);
  // `ai` is an optional peer dependency: the consumer brings its own.
  fs.symlinkSync(path.join(root, 'node_modules', 'ai'), path.join(consumer, 'node_modules', 'ai'), 'dir');
  cli = path.join(consumer, 'node_modules', '.bin', 'editblocks');
});

after(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

function folder(name, files) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const env = () => ({ ...process.env, EDITBLOCKS_STATE_DIR: stateDir });

async function connect(args, { roots } = {}) {
  const client = new Client({ name: 'editblocks-test', version: '1.0.0' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href })) }));
  const transport = new StdioClientTransport({ command: cli, args: ['mcp', ...args], env: env(), stderr: 'pipe' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = (client, name, args) => client.callTool({ name, arguments: args });
const text = (answer) => answer.content.map((c) => c.text).join('\n');

test('the server lists the text editor commands and apply_patch with schemas and annotations', async () => {
  const dir = folder('listing', { 'a.txt': 'a\n' });
  const client = await connect(['--root', dir]);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['view', 'create', 'str_replace', 'insert', 'undo_edit', 'apply_patch']);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(byName.str_replace.inputSchema.required, ['path', 'old_str']);
  assert.deepEqual(Object.keys(byName.insert.inputSchema.properties), ['path', 'insert_line', 'new_str']);
  assert.deepEqual(Object.keys(byName.view.inputSchema.properties), ['path', 'view_range']);
  assert.deepEqual(byName.apply_patch.inputSchema.required, ['patch']);
  for (const t of tools) {
    assert.ok(t.description.length > 20, `${t.name} is described`);
    for (const [key, prop] of Object.entries(t.inputSchema.properties)) assert.ok(prop.description, `${t.name}.${key} is described`);
  }
  assert.equal(byName.view.annotations.readOnlyHint, true);
  assert.equal(byName.str_replace.annotations.destructiveHint, true);
  assert.equal(byName.create.annotations.destructiveHint, false);
});

test('edits in a git repository: ambiguity refused with the candidates, CRLF and BOM kept, diffs returned, undo', async () => {
  const crlf = '\ufeffline one\r\nfoo\r\nline three\r\nfoo\r\n';
  const dir = folder('repo', { 'crlf.txt': crlf, 'src/app.py': 'def main():\n    print("hi")\n' });
  sh('git', ['init', '-q'], dir);
  const client = await connect(['--root', dir]);

  const view = await call(client, 'view', { path: 'src/app.py' });
  assert.ok(!view.isError);
  assert.match(text(view), /     1\tdef main\(\):\n     2\t    print\("hi"\)/);
  assert.match(text(await call(client, 'view', { path: '.' })), /src\/app\.py/);

  const ambiguous = await call(client, 'str_replace', { path: 'crlf.txt', old_str: 'foo', new_str: 'bar' });
  assert.equal(ambiguous.isError, true);
  assert.match(text(ambiguous), /Multiple occurrences of old_str `foo` in lines \[2, 4\]/);
  assert.match(text(ambiguous), /     2\tfoo/);
  assert.equal(fs.readFileSync(path.join(dir, 'crlf.txt'), 'utf8'), crlf, 'a refused edit writes nothing');

  const missing = await call(client, 'str_replace', { path: 'src/app.py', old_str: '    print("hello")', new_str: '    print("bye")' });
  assert.equal(missing.isError, true);
  assert.match(text(missing), /print\("hi"\)/, 'the refusal shows the current lines to copy from');

  const fixed = await call(client, 'str_replace', { path: 'crlf.txt', old_str: 'line three\nfoo', new_str: 'line three\nbar' });
  assert.ok(!fixed.isError, text(fixed));
  assert.equal(fs.readFileSync(path.join(dir, 'crlf.txt'), 'utf8'), '\ufeffline one\r\nfoo\r\nline three\r\nbar\r\n', 'BOM and CRLF kept byte for byte');
  assert.match(text(fixed), /--- a\/crlf\.txt\n\+\+\+ b\/crlf\.txt\n@@ -1,4 \+1,4 @@\n \ufeffline one\n foo\n line three\n-foo\n\+bar\n/);

  const inserted = await call(client, 'insert', { path: 'src/app.py', insert_line: 0, new_str: 'import sys' });
  assert.ok(!inserted.isError, text(inserted));
  assert.equal(fs.readFileSync(path.join(dir, 'src/app.py'), 'utf8'), 'import sys\ndef main():\n    print("hi")\n');
  const undone = await call(client, 'undo_edit', { path: 'src/app.py' });
  assert.ok(!undone.isError, text(undone));
  assert.equal(fs.readFileSync(path.join(dir, 'src/app.py'), 'utf8'), 'def main():\n    print("hi")\n');

  const created = await call(client, 'create', { path: 'docs/new.md', file_text: '# New\n' });
  assert.ok(!created.isError, text(created));
  assert.match(text(created), /--- \/dev\/null\n\+\+\+ b\/docs\/new\.md/);
  const again = await call(client, 'create', { path: 'docs/new.md', file_text: 'other\n' });
  assert.equal(again.isError, true, 'create does not overwrite');
  assert.equal(fs.readFileSync(path.join(dir, 'docs/new.md'), 'utf8'), '# New\n');
});

test('apply_patch writes every file of a patch or none', async () => {
  const dir = folder('patches', { 'a.txt': 'one\ntwo\n', 'b.txt': 'three\n' });
  const client = await connect(['--root', dir]);
  const failing = await call(client, 'apply_patch', { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** Update File: b.txt\n@@\n-four\n+FOUR\n*** End Patch' });
  assert.equal(failing.isError, true);
  assert.match(text(failing), /b\.txt/);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\ntwo\n', 'nothing written when one file fails');
  const ok = await call(client, 'apply_patch', { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** Add File: c.txt\n+new\n*** Delete File: b.txt\n*** End Patch' });
  assert.ok(!ok.isError, text(ok));
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\nTWO\n');
  assert.equal(fs.readFileSync(path.join(dir, 'c.txt'), 'utf8'), 'new\n');
  assert.ok(!fs.existsSync(path.join(dir, 'b.txt')));
  assert.match(text(ok), /\+\+\+ b\/a\.txt[\s\S]*-two\n\+TWO/);
  const noPatch = await call(client, 'apply_patch', { diff: 'x' });
  assert.equal(noPatch.isError, true);
  assert.match(text(noPatch), /apply_patch needs `patch`/);
  const unknown = await call(client, 'edit_file', { path: 'a.txt' });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /Unknown tool "edit_file"; the tools are view, create/);
});

test('hostile paths are refused and nothing outside the root is touched', async () => {
  const outside = folder('outside', { 'secret.txt': 'secret\n' });
  const dir = folder('hostile', { 'a.txt': 'a\n', '.git/config': '[core]\n' });
  fs.symlinkSync(outside, path.join(dir, 'link'), 'dir');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'secret-link.txt'));
  const client = await connect(['--root', dir]);
  const attempts = [
    ['create', { path: '../outside/new.txt', file_text: 'x\n' }],
    ['create', { path: path.join(outside, 'abs.txt'), file_text: 'x\n' }],
    ['create', { path: 'link/new.txt', file_text: 'x\n' }],
    ['str_replace', { path: 'link/secret.txt', old_str: 'secret', new_str: 'stolen' }],
    ['str_replace', { path: 'secret-link.txt', old_str: 'secret', new_str: 'stolen' }],
    ['view', { path: 'secret-link.txt' }],
    ['view', { path: '../outside/secret.txt' }],
    ['str_replace', { path: '.git/config', old_str: '[core]', new_str: '[core]\n\thooksPath = /tmp' }],
    ['create', { path: '.GIT/hooks/pre-commit', file_text: '#!/bin/sh\n' }],
    ['create', { path: 'a/../../outside/x.txt', file_text: 'x\n' }],
    ['apply_patch', { patch: '*** Begin Patch\n*** Add File: ../outside/p.txt\n+x\n*** End Patch' }],
    ['apply_patch', { patch: '*** Begin Patch\n*** Update File: a.txt\n*** Move to: link/moved.txt\n@@\n-a\n+b\n*** End Patch' }],
  ];
  for (const [name, args] of attempts) {
    const answer = await call(client, name, args);
    assert.equal(answer.isError, true, `${name} ${JSON.stringify(args)} was refused: ${text(answer)}`);
    assert.doesNotMatch(text(answer), /^secret$/m, 'nothing of the outside file is shown');
    assert.match(text(answer), /refused|outside|link|not|cannot/i, `the refusal says why: ${text(answer)}`);
  }
  assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
  assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(fs.readFileSync(path.join(dir, '.git/config'), 'utf8'), '[core]\n');
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\n');
});

test('--read-only offers view only; --dry-run answers with the diff and writes nothing; --allow-folder opens one folder', async () => {
  const dir = folder('options', { 'a.txt': 'alpha\n', '.git/info/exclude': '# excludes\n' });
  const readOnly = await connect(['--root', dir, '--read-only']);
  assert.deepEqual((await readOnly.listTools()).tools.map((t) => t.name), ['view']);
  const refused = await call(readOnly, 'str_replace', { path: 'a.txt', old_str: 'alpha', new_str: 'beta' });
  assert.equal(refused.isError, true);
  assert.match(text(refused), /read-only/);

  const dry = await connect(['--root', dir, '--dry-run']);
  const answer = await call(dry, 'str_replace', { path: 'a.txt', old_str: 'alpha', new_str: 'beta' });
  assert.ok(!answer.isError, text(answer));
  assert.match(text(answer), /^Dry run: nothing was written/);
  assert.match(text(answer), /-alpha\n\+beta/);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'alpha\n');

  const closed = await connect(['--root', dir]);
  assert.equal((await call(closed, 'insert', { path: '.git/info/exclude', insert_line: 1, new_str: 'build/' })).isError, true);
  const allowed = await connect(['--root', dir, '--allow-folder', '.git/info']);
  const opened = await call(allowed, 'insert', { path: '.git/info/exclude', insert_line: 1, new_str: 'build/' });
  assert.ok(!opened.isError, text(opened));
  assert.equal(fs.readFileSync(path.join(dir, '.git/info/exclude'), 'utf8'), '# excludes\nbuild/\n');
});

// --no-flush: the same edits and answers; the server then never waits for the disk
// (counted with strace, which records every fsync the server process makes).
test('--no-flush edits as the default does, without fsync; the default flushes each written file', async (t) => {
  if (spawnSync('strace', ['-V']).status !== 0) return t.skip('strace is not installed');
  const fsyncs = async (flags) => {
    const dir = folder(`flush${flags.length}`, { 'a.txt': 'alpha\n' });
    const log = path.join(scratch, `strace-${flags.length}.txt`);
    const client = new Client({ name: 'editblocks-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: 'strace', args: ['-f', '-qq', '-e', 'trace=fsync,fdatasync', '-o', log, cli, 'mcp', '--root', dir, ...flags], env: env(), stderr: 'pipe' }));
    const answer = await client.callTool({ name: 'str_replace', arguments: { path: 'a.txt', old_str: 'alpha', new_str: 'beta' } });
    await client.close();
    assert.ok(!answer.isError, text(answer));
    assert.match(text(answer), /-alpha\n\+beta/);
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'beta\n');
    return fs.readFileSync(log, 'utf8').split('\n').filter((l) => /fsync|fdatasync/.test(l)).length;
  };
  assert.ok((await fsyncs([])) >= 1, 'the default waits for the disk');
  assert.equal(await fsyncs(['--no-flush']), 0);
});

test('a root that does not exist, or is a file, is a clear error', () => {
  const missing = path.join(scratch, 'no-such-folder');
  const run = spawnSync(cli, ['mcp', '--root', missing], { encoding: 'utf8', env: env(), input: '' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--root .*no-such-folder does not exist/);
  const file = path.join(folder('a-file-root', { 'f.txt': 'x\n' }), 'f.txt');
  const onFile = spawnSync(cli, ['mcp', '--root', file], { encoding: 'utf8', env: env(), input: '' });
  assert.equal(onFile.status, 2);
  assert.match(onFile.stderr, /is a file, not a folder/);
  const usage = spawnSync(cli, ['mcp', '--frobnicate'], { encoding: 'utf8', env: env(), input: '' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /unknown argument --frobnicate/);
});

test("the client's roots narrow the folders edited to those inside --root", async () => {
  const dir = folder('roots', { 'top.txt': 'top\n', 'pkg/a.txt': 'inner\n', 'other/a.txt': 'other\n' });
  const client = await connect(['--root', dir], { roots: [path.join(dir, 'pkg')] });
  // The roots are read after initialisation: wait until the relative path lands in the client's root.
  let answer;
  for (let i = 0; i < 50; i++) {
    answer = await call(client, 'view', { path: 'a.txt' });
    if (!answer.isError && /inner/.test(text(answer))) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.match(text(answer), /1\tinner/);
  const edited = await call(client, 'str_replace', { path: 'a.txt', old_str: 'inner', new_str: 'INNER' });
  assert.ok(!edited.isError, text(edited));
  assert.equal(fs.readFileSync(path.join(dir, 'pkg/a.txt'), 'utf8'), 'INNER\n');
  assert.equal((await call(client, 'view', { path: '../top.txt' })).isError, true, 'outside the client root is refused');
  assert.equal(fs.readFileSync(path.join(dir, 'other/a.txt'), 'utf8'), 'other\n');

  const elsewhere = await connect(['--root', path.join(dir, 'pkg')], { roots: [path.join(dir, 'other')] });
  let refused;
  for (let i = 0; i < 50; i++) {
    refused = await call(elsewhere, 'view', { path: 'a.txt' });
    if (refused.isError) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(refused.isError, true);
  assert.match(text(refused), /not inside the server's root/);
});

test('two servers editing one file at once lose no edit', async () => {
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
  const dir = folder('concurrent', { 'shared.txt': lines.join('\n') + '\n' });
  const [first, second] = [await connect(['--root', dir]), await connect(['--root', dir])];
  const edits = (client, parity) => Promise.all(lines.map((line, i) => (i % 2 === parity ? call(client, 'str_replace', { path: 'shared.txt', old_str: `${line}\n`, new_str: `${line} edited\n` }) : null)).filter(Boolean));
  const answers = [...await Promise.all([edits(first, 0), edits(second, 1)])].flat();
  const applied = answers.filter((a) => !a.isError).length;
  for (const a of answers.filter((x) => x.isError)) assert.match(text(a), /changed|being written by another process/, `a refusal names the concurrent change: ${text(a)}`);
  const final = fs.readFileSync(path.join(dir, 'shared.txt'), 'utf8');
  const editedLines = final.split('\n').filter((l) => l.endsWith(' edited')).length;
  assert.equal(editedLines, applied, `every edit answered as applied is in the file (${applied} applied, ${editedLines} in the file)`);
  assert.ok(applied >= 10, `edits apply (${applied} of ${lines.length})`);
  console.log(`# concurrent: ${applied} of ${answers.length} edits applied, 0 lost`);
});

test('a server killed while applying patches leaves every patch written whole or not at all', async () => {
  const dir = folder('killed', { 'a.txt': 'count 0\n', 'b.txt': 'count 0\n' });
  const server = spawn(cli, ['mcp', '--root', dir], { env: env(), stdio: ['pipe', 'pipe', 'inherit'] });
  const send = (id, method, params) => server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  send(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'killer', version: '1' } });
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  let answered = 0;
  server.stdout.on('data', (chunk) => { answered += String(chunk).split('\n').filter((l) => l.includes('"result"')).length; });
  for (let n = 1; n <= 400; n++) {
    const patch = `*** Begin Patch\n*** Update File: a.txt\n@@\n-count ${n - 1}\n+count ${n}\n*** Update File: b.txt\n@@\n-count ${n - 1}\n+count ${n}\n*** End Patch`;
    send(n, 'tools/call', { name: 'apply_patch', arguments: { patch } });
  }
  let exited = false;
  server.on('exit', () => { exited = true; });
  while (answered < 40 && !exited) await new Promise((r) => setTimeout(r, 5));
  assert.ok(!exited, 'the server was still running');
  server.kill('SIGKILL');
  while (!exited) await new Promise((r) => setTimeout(r, 5));
  // A new server rolls back what the killed one left half done, then edits as before.
  const client = await connect(['--root', dir]);
  const a = fs.readFileSync(path.join(dir, 'a.txt'), 'utf8');
  const b = fs.readFileSync(path.join(dir, 'b.txt'), 'utf8');
  assert.match(a, /^count \d+\n$/);
  assert.equal(a, b, 'both files of each patch, or neither');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['a.txt', 'b.txt'], 'no temporary file left');
  const n = Number(a.match(/\d+/)[0]);
  const next = await call(client, 'apply_patch', { patch: `*** Begin Patch\n*** Update File: a.txt\n@@\n-count ${n}\n+count done\n*** End Patch` });
  assert.ok(!next.isError, text(next));
  console.log(`# killed after ${answered} answers; the files held patch ${n}`);
});

test('Streamable HTTP on 127.0.0.1 serves the same tools', async () => {
  const dir = folder('http', { 'a.txt': 'one\n' });
  const server = spawn(cli, ['mcp', '--root', dir, '--http', '0'], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let err = '';
      server.stderr.on('data', (c) => {
        err += c;
        const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (m) resolve(m[1]);
      });
      server.on('exit', () => reject(new Error(`the server exited: ${err}`)));
    });
    const client = new Client({ name: 'editblocks-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const answer = await call(client, 'str_replace', { path: 'a.txt', old_str: 'one', new_str: 'two' });
    assert.ok(!answer.isError, text(answer));
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'two\n');
    await client.close();
    // A page served under another host name is refused (DNS rebinding).
    const status = await new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
    });
    assert.equal(status, 403);
  } finally {
    server.kill();
  }
});

test('editblocks/ai-sdk with generateText: a refused edit\'s retry text reaches the next step, whose call applies', () => {
  const dir = folder('ai-sdk', { 'app.js': 'const greeting = "hello";\nconsole.log(greeting);\n' });
  const script = `
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { nodeHost } from 'editblocks';
import { editTools } from 'editblocks/ai-sdk';
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const calls = [
  { toolName: 'str_replace', input: { path: 'app.js', old_str: 'const greeting = "helo";', new_str: 'const greeting = "hi";' } },
  { toolName: 'str_replace', input: { path: 'app.js', old_str: 'const greeting = "hello";', new_str: 'const greeting = "hi";' } },
];
const prompts = [];
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => {
    prompts.push(prompt);
    const next = calls[prompts.length - 1];
    if (!next) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    return { content: [{ type: 'tool-call', toolCallId: 'call-' + prompts.length, toolName: next.toolName, input: JSON.stringify(next.input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
  },
});
const tools = editTools(nodeHost(${JSON.stringify(dir)}));
const result = await generateText({ model, tools, prompt: 'greet with hi', stopWhen: stepCountIs(5) });
const toolMessages = (p) => p.filter((m) => m.role === 'tool').flatMap((m) => m.content);
console.log(JSON.stringify({
  steps: result.steps.length,
  text: result.text,
  tools: Object.keys(tools),
  secondPrompt: toolMessages(prompts[1] || []),
  thirdPrompt: toolMessages(prompts[2] || []),
  outputs: result.steps.flatMap((s) => s.toolResults.map((r) => r.output)),
}));
`;
  fs.writeFileSync(path.join(consumer, 'ai-sdk-loop.mjs'), script);
  const out = JSON.parse(sh('node', ['ai-sdk-loop.mjs'], consumer));
  assert.deepEqual(out.tools, ['view', 'create', 'str_replace', 'insert', 'undo_edit', 'apply_patch']);
  assert.equal(out.steps, 3);
  assert.equal(out.text, 'done');
  const refusal = out.secondPrompt.find((p) => p.type === 'tool-result');
  assert.equal(refusal.output.type, 'error-text', 'the refusal reaches the model as an error');
  assert.match(refusal.output.value, /const greeting = "hello";/, 'with the current lines to copy');
  assert.equal(out.outputs[0].ok, false);
  const applied = out.thirdPrompt.filter((p) => p.type === 'tool-result').at(-1);
  assert.equal(applied.output.type, 'text');
  assert.match(applied.output.value, /-const greeting = "hello";\n\+const greeting = "hi";/);
  assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), 'const greeting = "hi";\nconsole.log(greeting);\n');
});

test('editblocks/ai-sdk type-checks with the ai package under nodenext and bundler resolution', () => {
  const code = [
    "import { generateText, stepCountIs, type ToolSet } from 'ai';",
    "import { MockLanguageModelV4 } from 'ai/test';",
    "import { nodeHost, EditSession } from 'editblocks';",
    "import { editTools, type EditToolOutput } from 'editblocks/ai-sdk';",
    "const all: ToolSet = editTools(nodeHost('.'));",
    "const tools = editTools(nodeHost('.'), { session: new EditSession(), dryRun: true, tools: ['view', 'str_replace'] });",
    'const set: ToolSet = tools;',
    '// @ts-expect-error only the tools asked for',
    'void tools.create;',
    "// @ts-expect-error no such tool",
    "editTools(nodeHost('.'), { tools: ['edit'] });",
    'export async function run(): Promise<string[]> {',
    "  const result = await generateText({ model: new MockLanguageModelV4(), tools, prompt: 'x', stopWhen: stepCountIs(2) });",
    '  const diffs: string[] = [];',
    "  for (const step of result.steps) for (const r of step.toolResults) if (!r.dynamic && r.toolName === 'str_replace') { const out: EditToolOutput = r.output; diffs.push(out.diff); }",
    '  return diffs.concat(Object.keys(all), Object.keys(set));',
    '}',
    '',
  ].join('\n');
  for (const resolution of ['nodenext', 'bundler']) {
    const dir = path.join(consumer, `ts-${resolution}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'main.ts'), code);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: true,
        module: resolution === 'nodenext' ? 'nodenext' : 'esnext', moduleResolution: resolution,
      },
      files: ['main.ts'],
    }));
    try {
      sh(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', dir], dir);
    } catch (e) {
      assert.fail(`tsc (${resolution}) reported:\n${e.stdout}${e.stderr}`);
    }
  }
});
