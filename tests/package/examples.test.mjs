// examples/vite-page and examples/node-agent, each copied to a scratch folder
// with the packed tarball installed as `editblocks`, then built and run:
// the Vite page with Vite 8 (this repository's pinned dev dependency) and
// clicked through in headless Chromium; the agent against a local scripted
// model server speaking the OpenAI chat completions API, whose first edit
// fails so the retry path runs. (examples/vscode-web-extension has its own
// test: vscode-web-extension.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../www/serve.mjs';
import { launch, watch } from '../browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-examples-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let tarball;

/** The example as a user has it: its files, and the tarball installed as its `editblocks`. */
function example(name) {
  const dir = path.join(scratch, name);
  fs.cpSync(path.join(root, 'examples', name), dir, { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  delete pkg.devDependencies; // the tools come from this repository's pinned dev dependencies
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  return dir;
}

before(() => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  tarball = path.join(scratch, JSON.parse(out)[0].filename);
});

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

test('examples/vite-page: built with Vite 8, it streams the reply, renders it, and accepts and rejects blocks', { timeout: 120000 }, async () => {
  const dir = example('vite-page');
  try {
    sh(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], dir);
  } catch (e) {
    assert.fail(`vite build failed:\n${e.stdout}${e.stderr}`);
  }
  const dist = path.join(dir, 'dist');
  assert.ok(fs.readdirSync(path.join(dist, 'assets')).some((f) => f.endsWith('.wasm')), 'Vite shipped the wasm');
  const { server, url } = await serve({ dir: dist });
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const seen = watch(page);
    // Record what the page drew while the reply was streaming.
    await page.addInitScript(() => {
      window.__drawn = [];
      new MutationObserver(() => {
        const el = document.getElementById('blocks');
        if (el) window.__drawn.push(el.querySelectorAll('.eb-block-pending').length);
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(`${url}/index.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert.ok(await page.evaluate(() => window.__drawn.some((n) => n > 0)), 'a block was drawn while it was being written');
    assert.equal(await page.locator('.eb-block').count(), 2);
    assert.equal(await page.locator('.eb-block-pending').count(), 0);
    assert.equal(await page.$eval('.eb-block', (el) => getComputedStyle(el).borderTopStyle), 'solid', 'style.css applies');

    await page.click('button[data-accept="0"]');
    await page.waitForSelector('.eb-block[data-status="applied"]');
    await page.click('button[data-reject="1"]');
    await page.waitForSelector('.eb-block[data-status="skipped"]');
    const state = await page.evaluate(() => window.__example);
    assert.equal(state.files['src/greet.js'], "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n");
    assert.equal(state.files['src/config.js'], 'export const retries = 1;\n', 'the rejected edit was not applied');
    assert.ok(await page.$('.eb-summary[data-applied="1"][data-skipped="1"]'), 'the summary counts one applied, one rejected');
    assert.equal(await page.locator('button[data-accept]').count(), 0, 'no choices left');
    assert.deepEqual(seen.errors, []);
    await page.close();
  } finally {
    await browser.close();
    server.close();
  }
});

/** A scripted model: answers each chat completion request with the next of `turns`, and records the requests. */
function scriptedModel(turns) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      requests.push({ path: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
      const message = turns[requests.length - 1] ?? { role: 'assistant', content: 'Out of script.' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }] }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

test('examples/node-agent: the loop applies tool calls, sends the retry context after a failed edit, and stops when the model is done', async () => {
  const dir = example('node-agent');
  const project = path.join(dir, 'project');
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'src', 'config.js'), 'export const retries = 1;\nexport const timeout = 5;\n');
  const model = await scriptedModel([
    { role: 'assistant', content: null, tool_calls: [call('c1', 'edit_file', { path: 'src/config.js', edits: [{ old_string: 'export const retries = 2;', new_string: 'export const retries = 3;' }] })] },
    { role: 'assistant', content: null, tool_calls: [
      call('c2', 'edit_file', { path: 'src/config.js', edits: [{ old_string: 'export const retries = 1;', new_string: 'export const retries = 3;' }] }),
      call('c3', 'write_file', { path: 'CHANGES.md', content: '- retries: 3\n' }),
    ] },
    { role: 'assistant', content: 'Done: retries is 3.' },
  ]);
  try {
    const { runAgent } = await import(pathToFileURL(path.join(dir, 'agent.mjs')).href);
    const logged = [];
    const { turns } = await runAgent({ task: 'Make retries 3.', root: project, files: ['src/config.js'], baseURL: model.url, apiKey: 'test-key', log: (l) => logged.push(l) });
    assert.equal(turns, 3);
    assert.equal(fs.readFileSync(path.join(project, 'src', 'config.js'), 'utf8'), 'export const retries = 3;\nexport const timeout = 5;\n');
    assert.equal(fs.readFileSync(path.join(project, 'CHANGES.md'), 'utf8'), '- retries: 3\n');
    assert.deepEqual(logged, ['turn 1: failed src/config.js failed', 'turn 2: applied src/config.js applied, CHANGES.md applied', 'model: Done: retries is 3.']);

    const [first, second] = model.requests;
    assert.equal(first.path, '/v1/chat/completions');
    assert.equal(first.auth, 'Bearer test-key');
    assert.deepEqual(first.body.tools.map((t) => [t.type, t.function.name]), [['function', 'write_file'], ['function', 'edit_file']]);
    assert.match(first.body.messages[1].content, /export const retries = 1;/, 'the file was shown to the model');
    const retry = second.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'c1');
    assert.match(retry.content, /Nothing was written/);
    assert.match(retry.content, /retries = 2/, 'the retry context quotes the text that did not match');
  } finally {
    model.server.close();
  }
});
