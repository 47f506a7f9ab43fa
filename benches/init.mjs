#!/usr/bin/env node
// Times `await init()` of the browser build in headless Chromium: fetching,
// compiling and instantiating pkg/web/editblocks_bg.wasm, then the first
// parseEdits + renderEditBlock call. Each of the runs is a fresh page with
// the HTTP cache off, so every run fetches and compiles. Prints the median
// and the module's gzipped size. (No peer: jsdiff and diff2html have no init.)
//
// Usage: node scripts/build.mjs && node benches/init.mjs [runs]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serve } from '../www/serve.mjs';
import { launch } from '../tests/browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] || 7);
const wasm = path.join(root, 'pkg', 'web', 'editblocks_bg.wasm');
const { server, url } = await serve({ dir: root });
const browser = await launch();
const samples = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.context.newPage();
    await page.route('**/*', (route) => route.continue()); // routing turns the HTTP cache off
    await page.goto(`${url}/pkg/package.json`);
    samples.push(await page.evaluate(async (entry) => {
      const eb = await import(entry);
      const t0 = performance.now();
      await eb.init();
      const t1 = performance.now();
      const blocks = eb.parseEdits('a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n');
      eb.renderEditBlock(blocks[0]);
      return { init: t1 - t0, firstCall: performance.now() - t1 };
    }, `${url}/pkg/web/index.js`));
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gz = zlib.gzipSync(fs.readFileSync(wasm), { level: 9 }).length;
console.log(`init() in headless Chromium, median of ${runs} fresh pages: ${median(samples.map((s) => s.init)).toFixed(1)} ms ` +
  `(first parseEdits + renderEditBlock after it: ${median(samples.map((s) => s.firstCall)).toFixed(1)} ms); ` +
  `module ${(fs.statSync(wasm).size / 1024).toFixed(1)} KiB, gzipped ${(gz / 1024).toFixed(1)} KiB`);
