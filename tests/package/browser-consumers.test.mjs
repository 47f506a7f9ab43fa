// The packed tarball in browser consumers: a page and a web worker, each
// bundled with esbuild from a scratch project that installed the tarball, run
// in headless Chromium. The page loads the package with `await init(url)` and
// imports `editblocks/style.css`; the worker gets the wasm bytes in a message
// and calls `initSync(bytes)`, the way a VS Code web extension loads it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../www/serve.mjs';
import { launch, watch } from '../browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-browser-consumer-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');

const REPLY = [
  'Here is the change:',
  '',
  'src/hello.js',
  '««« EDIT',
  'export function hello() {',
  "  return 'hi';",
  '═══════ REPL',
  'export function hello() {',
  "  return 'hello 👋🏽';",
  '»»» EDIT END',
  '',
].join('\n');

let dist;
let server;
let base;
let browser;

before(async () => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  const tarball = path.join(scratch, JSON.parse(out)[0].filename);
  const app = path.join(scratch, 'web-app');
  fs.mkdirSync(app, { recursive: true });
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'web-app', private: true, type: 'module' }));
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], app);

  fs.writeFileSync(path.join(app, 'page.js'), `
import 'editblocks/style.css';
import api, { init, parseEdits, renderEditBlock, renderEditsSummary, diffBlock, EditStream } from 'editblocks';
const REPLY = ${JSON.stringify(REPLY)};
const message = (f) => { try { f(); return 'no error'; } catch (e) { return e.message; } };
window.__beforeInit = { parseEdits: message(() => parseEdits(REPLY)), EditStream: message(() => new EditStream()), diffBlock: message(() => diffBlock('a', 'b')) };
// Every other function too (no arguments: the missing module is still what is named).
window.__beforeInitAll = {};
for (const name of Object.keys(api)) {
  // Error classes (HostFailureError) are thrown by the library, not calls into the module;
  // an EditSession only holds a conversation's file history in JS until a call uses it.
  if (typeof api[name] !== 'function' || name === 'init' || name === 'initSync' || name === 'EditStream' || name === 'EditSession' || api[name].prototype instanceof Error) continue;
  const isClass = /^class[\\s{]/.test(Function.prototype.toString.call(api[name]));
  const key = isClass ? 'new ' + name + '()' : name;
  try {
    const out = isClass ? new api[name]('a.txt', 'x') : api[name]();
    window.__beforeInitAll[key] = out && typeof out.then === 'function' ? await out.then(() => 'no error', (e) => e.message) : 'no error';
  } catch (e) {
    window.__beforeInitAll[key] = e.message;
  }
}
await init(new URL('./editblocks_bg.wasm', location.href));
// A trap re-instantiates the module from the one compiled at init (the
// internal hook hands the raw binding input nested too deep for its stack).
let deep = 'leaf';
for (let i = 0; i < 5000; i++) deep = [deep];
window.__reset = { message: message(() => api[Symbol.for('editblocks.internals')].callRaw('toolsPlan', [{ name: 'write_file', arguments: { content: deep } }])) };
window.__reset.generation = api[Symbol.for('editblocks.internals')].generation();
const blocks = parseEdits(REPLY);
document.getElementById('out').innerHTML =
  blocks.map((b) => renderEditBlock(b)).join('') + renderEditsSummary([{ filePath: 'src/hello.js', status: 'applied' }]);
window.__page = { blocks: blocks.length, firstPath: blocks[0] && blocks[0].filePath, diffLines: diffBlock('a\\nb', 'a\\nc').length };
const bytes = await (await fetch('./editblocks_bg.wasm')).arrayBuffer();
const worker = new Worker('./worker.js');
worker.onmessage = (e) => { window.__worker = e.data; };
worker.onerror = (e) => { window.__worker = { error: e.message || 'worker error' }; };
worker.postMessage({ bytes, reply: REPLY }, [bytes]);
`);
  fs.writeFileSync(path.join(app, 'worker.js'), `
import { initSync, parseEdits, diffBlock } from 'editblocks';
self.onmessage = ({ data }) => {
  try {
    initSync(data.bytes);
    const blocks = parseEdits(data.reply);
    const spans = diffBlock(blocks[0].oldLines, blocks[0].newLines).find((l) => l.kind === 'added').spans;
    self.postMessage({
      blocks: blocks.map((b) => ({ filePath: b.filePath, newLines: b.newLines })),
      changed: spans.filter((s) => s.changed).map((s) => s.text),
      hasDocument: typeof document !== 'undefined',
    });
  } catch (e) {
    self.postMessage({ error: String(e && e.stack || e) });
  }
};
`);
  dist = path.join(app, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  sh(esbuild, ['page.js', '--bundle', '--format=esm', '--platform=browser', '--target=es2022', `--outdir=${dist}`, '--log-level=error'], app);
  sh(esbuild, ['worker.js', '--bundle', '--format=iife', '--platform=browser', '--target=es2020', `--outfile=${path.join(dist, 'worker.js')}`, '--log-level=error'], app);
  fs.copyFileSync(path.join(app, 'node_modules/editblocks/web/editblocks_bg.wasm'), path.join(dist, 'editblocks_bg.wasm'));
  // editblocks/lite: init() with no argument fetches editblocks_lite_bg.wasm next to the bundle.
  fs.writeFileSync(path.join(app, 'lite-page.js'), `
import 'editblocks/style.css';
import lite, { init, parseEdits, renderEditBlock, renderEditsSummary, renderInProgressEditBlock, diffBlock, EditStream } from 'editblocks/lite';
const REPLY = ${JSON.stringify(REPLY)};
const message = (f) => { try { f(); return 'no error'; } catch (e) { return e.message; } };
const beforeInit = { parseEdits: message(() => parseEdits(REPLY)), renderEditBlock: message(() => renderEditBlock({})) };
await init();
const blocks = parseEdits(REPLY);
const stream = new EditStream();
const events = [];
for (let i = 0; i < REPLY.length; i += 7) events.push(...stream.feed(REPLY.slice(i, i + 7)).map((e) => e.type));
events.push(...stream.finish().map((e) => e.type));
document.getElementById('out').innerHTML =
  blocks.map((b) => renderEditBlock(b, [{ filePath: b.filePath, status: 'applied', estimatedLine: 1 }])).join('') +
  renderEditsSummary([{ filePath: 'src/hello.js', status: 'applied' }]) + renderInProgressEditBlock('src/next.js', ['««« EDIT', 'x']);
const added = diffBlock(blocks[0].oldLines, blocks[0].newLines).find((l) => l.kind === 'added');
window.__lite = { beforeInit, names: Object.keys(lite).sort(), blocks: blocks.length, events, changed: added.spans.filter((s) => s.changed).map((s) => s.text) };
`);
  sh(esbuild, ['lite-page.js', '--bundle', '--format=esm', '--platform=browser', '--target=es2022', `--outdir=${dist}`, '--log-level=error'], app);
  fs.copyFileSync(path.join(app, 'node_modules/editblocks/web/editblocks_lite_bg.wasm'), path.join(dist, 'editblocks_lite_bg.wasm'));
  fs.writeFileSync(path.join(dist, 'lite.html'),
    '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="lite-page.css"><div id="out"></div><script type="module" src="lite-page.js"></script>\n');
  fs.writeFileSync(path.join(dist, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="page.css"><div id="out"></div><script type="module" src="page.js"></script>\n');
  ({ server, url: base } = await serve({ dir: dist }));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('the bundled stylesheet comes from editblocks/style.css', () => {
  const css = fs.readFileSync(path.join(dist, 'page.css'), 'utf8');
  assert.match(css, /\.eb-block\b/);
  assert.match(css, /prefers-color-scheme: dark/);
});

test('before init() every function says to call init(); after a trap in the page the module is re-instantiated', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => window.__page, null, { timeout: 20000 });
  const { before, reset, blocks } = await page.evaluate(() => ({ before: window.__beforeInit, reset: window.__reset, blocks: window.__page.blocks }));
  for (const name of ['parseEdits', 'diffBlock']) {
    assert.equal(before[name], `editblocks: call init() (or initSync(bytes)) before using ${name}; the wasm module is not loaded yet`);
  }
  const all = await page.evaluate(() => window.__beforeInitAll);
  assert.ok(Object.keys(all).length >= 20, `only ${Object.keys(all).length} functions tried`);
  for (const [name, msg] of Object.entries(all)) {
    assert.equal(msg, `editblocks: call init() (or initSync(bytes)) before using ${name}; the wasm module is not loaded yet`, name);
  }
  assert.match(before.EditStream, /^editblocks: call init\(\) \(or initSync\(bytes\)\) before using new EditStream\(\)/);
  assert.match(reset.message, /^editblocks: internal error in an internal call \(.+\); the module was reset/);
  assert.equal(reset.generation, 1);
  assert.equal(blocks, 1, 'parseEdits works on the new instance');
  await page.close();
});

test('a bundled page loads the package with init() and renders; a bundled worker parses with initSync(bytes)', async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => window.__page && window.__worker, null, { timeout: 20000 });
  const result = await page.evaluate(() => ({ page: window.__page, worker: window.__worker }));
  assert.equal(result.worker.error, undefined, result.worker.error);
  assert.deepEqual(result.page, { blocks: 1, firstPath: 'src/hello.js', diffLines: 3 });
  assert.deepEqual(result.worker.blocks, [{ filePath: 'src/hello.js', newLines: "  return 'hello 👋🏽';" }]);
  assert.deepEqual(result.worker.changed, ['hello 👋🏽']);
  assert.equal(result.worker.hasDocument, false, 'the worker has no DOM');
  // The stylesheet applies: the block has a border from style.css.
  const border = await page.$eval('.eb-block', (el) => getComputedStyle(el).borderTopStyle);
  assert.equal(border, 'solid');
  assert.ok(await page.$('.eb-summary[data-applied="1"]'));
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('a bundled page of editblocks/lite loads its own smaller module with init() and renders like the full entry', async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(`${base}/lite.html`);
  await page.waitForFunction(() => window.__lite, null, { timeout: 20000 });
  const lite = await page.evaluate(() => window.__lite);
  const notLoaded = (name) => `editblocks: call init() (or initSync(bytes)) before using ${name}; the wasm module is not loaded yet`;
  assert.deepEqual(lite.beforeInit, { parseEdits: notLoaded('parseEdits'), renderEditBlock: notLoaded('renderEditBlock') });
  assert.deepEqual(lite.names, ['EditStream', 'detectFormat', 'detectShellSuggestions', 'diffBlock', 'init', 'initSync', 'parseEdits', 'renderEditBlock', 'renderEditsSummary', 'renderInProgressEditBlock']);
  assert.equal(lite.blocks, 1);
  // One block streamed in 7-character chunks: it opens, grows line by line, and completes.
  assert.equal(lite.events[0], 'block-start');
  assert.equal(lite.events.at(-1), 'block-complete');
  assert.ok(lite.events.length >= 4 && lite.events.slice(1, -1).every((t) => t === 'block-update'), lite.events.join(', '));
  assert.deepEqual(lite.changed, ['hello 👋🏽']);
  assert.ok(fetched.includes('/editblocks_lite_bg.wasm'), `fetched ${fetched.join(', ')}`);
  assert.ok(!fetched.includes('/editblocks_bg.wasm'), 'the full module is not fetched');
  // The same stylesheet applies to what lite renders.
  assert.equal(await page.$eval('.eb-block', (el) => getComputedStyle(el).borderTopStyle), 'solid');
  assert.ok(await page.$('.eb-block.eb-status-applied'));
  assert.ok(await page.$('.eb-summary[data-applied="1"]'));
  assert.ok(await page.$('.eb-block-pending'));
  assert.deepEqual(seen.errors, []);
  await page.close();
});
