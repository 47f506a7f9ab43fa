#!/usr/bin/env node
// Times `await init()` of the browser builds in headless Chromium (the full
// entry, pkg/web/index.js, and editblocks/lite, pkg/web/lite.js): fetching,
// compiling and instantiating its wasm module, then the first
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
// Both entries in the same run, their pages interleaved so load on the machine hits both alike.
const ENTRIES = [
  { name: 'editblocks', entry: 'pkg/web/index.js', wasm: 'editblocks_bg.wasm' },
  { name: 'editblocks/lite', entry: 'pkg/web/lite.js', wasm: 'editblocks_lite_bg.wasm' },
];
const { server, url } = await serve({ dir: root });
const browser = await launch();
const samples = new Map(ENTRIES.map((e) => [e.name, []]));
try {
  for (let i = 0; i < runs; i++) {
    for (const { name, entry } of ENTRIES) {
      const page = await browser.context.newPage();
      await page.route('**/*', (route) => route.continue()); // routing turns the HTTP cache off
      await page.goto(`${url}/pkg/package.json`);
      samples.get(name).push(await page.evaluate(async (entry) => {
        const eb = await import(entry);
        const t0 = performance.now();
        await eb.init();
        const t1 = performance.now();
        const blocks = eb.parseEdits('a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n');
        eb.renderEditBlock(blocks[0]);
        return { init: t1 - t0, firstCall: performance.now() - t1 };
      }, `${url}/${entry}`));
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const { name, wasm } of ENTRIES) {
  const file = path.join(root, 'pkg', 'web', wasm);
  const gz = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  const got = samples.get(name);
  console.log(`${name}: init() in headless Chromium, median of ${runs} fresh pages: ${median(got.map((s) => s.init)).toFixed(1)} ms ` +
    `(first parseEdits + renderEditBlock after it: ${median(got.map((s) => s.firstCall)).toFixed(1)} ms); ` +
    `${wasm} ${(fs.statSync(file).size / 1024).toFixed(1)} KiB, gzipped ${(gz / 1024).toFixed(1)} KiB`);
}
