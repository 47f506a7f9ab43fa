// The packed tarball in a webpack 5 production build: a page that imports
// `editblocks/style.css` and renders an edit block. webpack honours the
// package's `sideEffects` field when it tree-shakes, so a stylesheet not
// declared as a side effect is silently dropped and the page renders
// unstyled. The built page is loaded in headless Chromium and the computed
// styles of the rendered block are checked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from '../../www/serve.mjs';
import { launch, watch } from '../browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const webpack = createRequire(import.meta.url)('webpack');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-webpack-consumer-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const REPLY = 'Here:\n\nsrc/a.js\n<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE\n';

let dist;
let server;
let base;
let browser;
let stats;

before(async () => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  const tarball = path.join(scratch, JSON.parse(out)[0].filename);
  const app = path.join(scratch, 'webpack-app');
  fs.mkdirSync(path.join(app, 'src'), { recursive: true });
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'webpack-app', private: true, type: 'module' }));
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], app);
  fs.writeFileSync(path.join(app, 'src', 'index.js'), `
import 'editblocks/style.css';
import { init, parseEdits, renderEditBlock } from 'editblocks';
import wasmUrl from 'editblocks/editblocks_bg.wasm';
await init(wasmUrl);
const blocks = parseEdits(${JSON.stringify(REPLY)});
document.getElementById('out').innerHTML = blocks.map((b) => renderEditBlock(b)).join('');
window.__done = blocks.length;
`);
  dist = path.join(app, 'dist');
  // Production mode: tree-shaking and sideEffects are in force. webpack 5's
  // built-in CSS support emits the stylesheet as a file; the wasm is an asset.
  stats = await new Promise((resolve, reject) => {
    webpack(
      {
        mode: 'production',
        context: app,
        entry: './src/index.js',
        output: { path: dist, filename: 'main.js', publicPath: '', clean: true },
        experiments: { css: true, outputModule: true, topLevelAwait: true },
        module: { rules: [{ test: /\.wasm$/, type: 'asset/resource' }] },
        performance: { hints: false },
      },
      (err, s) => (err ? reject(err) : resolve(s)),
    );
  });
  assert.equal(stats.hasErrors(), false, stats.toString({ all: false, errors: true }));
  fs.writeFileSync(path.join(dist, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="main.css"><div id="out"></div><script type="module" src="main.js"></script>\n');
  ({ server, url: base } = await serve({ dir: dist }));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('webpack keeps editblocks/style.css in a production build', () => {
  const css = path.join(dist, 'main.css');
  assert.ok(fs.existsSync(css), `no stylesheet emitted; webpack wrote ${fs.readdirSync(dist).join(', ')}`);
  assert.match(fs.readFileSync(css, 'utf8'), /\.eb-block\b/);
});

test('the webpack-built page renders a styled edit block in Chromium', async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => window.__done !== undefined, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.__done), 1);
  const styles = await page.$eval('.eb-block', (el) => {
    const s = getComputedStyle(el);
    const added = el.querySelector('.eb-line-added');
    return { border: s.borderTopStyle, radius: s.borderTopLeftRadius, font: getComputedStyle(el.querySelector('.eb-path')).fontFamily, addedBg: added && getComputedStyle(added).backgroundColor };
  });
  assert.equal(styles.border, 'solid', 'the block has the border style.css gives it');
  assert.match(styles.font, /mono/i, 'the path is set in a monospace font');
  assert.notEqual(styles.addedBg, 'rgba(0, 0, 0, 0)', 'an added line has a background colour');
  assert.deepEqual(seen.errors, []);
  await page.close();
});
