#!/usr/bin/env node
// Benchmark: time to first paint of a 3,000-line file diff in headless Chromium
// (node scripts/build.mjs first; Debian's chromium).
//
//   node benches/first-paint.mjs
//
// A 3,000-line file with 12 lines changed: every other line of a block of 20
// near the middle, and one line near each end. Each contender, in a fresh
// page holding the package's style.css and diff2html's CSS, turns the two
// texts into HTML, puts it in the page and waits for the frame after it
// (two requestAnimationFrame callbacks: the second runs once the first frame
// with the diff has been painted). Timed from before the diff to then:
//
//   editblocks  renderFileChange(change)                   folded: 3 lines of context (the default)
//   editblocks  renderFileChange(change, { context: 'all' }) the whole file
//   jsdiff + diff2html  createTwoFilesPatch(…, { context: 3 }) then Diff2Html.html(patch)
//
// Median of RUNS pages each, after one warm-up page; the HTML size and the
// number of elements drawn are printed beside each figure.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../www/serve.mjs';
import { launch } from '../tests/browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS || 9);
const LINES = 3000;

const before = Array.from({ length: LINES }, (_, i) => `    value_${i + 1} = compute(${i + 1}, "item ${i + 1}")`).join('\n') + '\n';
const after = before
  .split('\n')
  .map((l, i) => (i === 10 || i === LINES - 10 || (i >= 1490 && i < 1510 && i % 2 === 0) ? l.replace('compute', 'compute_fast') : l))
  .join('\n');
const changed = before.split('\n').filter((l, i) => l !== after.split('\n')[i]).length;

// Runs in the page: one contender, timed to the frame after its diff is drawn.
async function paint({ contender, before, after }) {
  const eb = await import('/pkg/web/index.js');
  await eb.init();
  const host = document.getElementById('root');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  await frame();
  const t0 = performance.now();
  let html;
  if (contender === 'folded') html = eb.renderFileChange({ path: 'src/values.py', before, after });
  else if (contender === 'whole') html = eb.renderFileChange({ path: 'src/values.py', before, after }, { context: 'all' });
  else {
    const patch = window.Diff.createTwoFilesPatch('a/src/values.py', 'b/src/values.py', before, after, '', '', { context: 3 });
    html = window.Diff2Html.html(patch, { drawFileList: false, outputFormat: 'line-by-line' });
  }
  const built = performance.now();
  host.innerHTML = html;
  await frame();
  const painted = performance.now();
  return { ms: painted - t0, buildMs: built - t0, bytes: html.length, elements: host.querySelectorAll('*').length };
}

const { server, url } = await serve({ dir: root });
const browser = await launch();
const contenders = [
  ['folded', 'editblocks renderFileChange (folded, 3 lines of context)'],
  ['whole', "editblocks renderFileChange ({ context: 'all' })"],
  ['diff2html', 'jsdiff createTwoFilesPatch + diff2html (3 lines of context)'],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log(`first paint of a ${LINES.toLocaleString('en')}-line file diff (${changed} changed lines), headless Chromium, median of ${RUNS} pages`);
  for (const [contender, label] of contenders) {
    const runs = [];
    for (let i = 0; i <= RUNS; i++) {
      const page = await browser.context.newPage();
      await page.goto(`${url}/tests/browser/render-page.html`);
      await page.addStyleTag({ url: `${url}/node_modules/diff2html/bundles/css/diff2html.min.css` });
      await page.addScriptTag({ url: `${url}/node_modules/diff/dist/diff.min.js` });
      await page.addScriptTag({ url: `${url}/node_modules/diff2html/bundles/js/diff2html.min.js` });
      const r = await page.evaluate(paint, { contender, before, after });
      await page.close();
      if (i > 0) runs.push(r); // the first page warms the caches
    }
    const ms = median(runs.map((r) => r.ms));
    const build = median(runs.map((r) => r.buildMs));
    console.log(`  ${label.padEnd(62)} ${ms.toFixed(1).padStart(7)} ms  (HTML built in ${build.toFixed(1)} ms; ${(runs[0].bytes / 1024).toFixed(1)} KiB, ${runs[0].elements} elements)`);
  }
} finally {
  await browser.close();
  server.close();
}
