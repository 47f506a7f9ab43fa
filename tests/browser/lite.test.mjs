// editblocks/lite in headless Chromium, straight from pkg/web (no bundler):
// `await init()` finds editblocks_lite_bg.wasm next to lite.js, and the page
// gets the same results from lite as from the full entry (pkg/web/index.js)
// for the same reply: blocks, stream events, diff, HTML. Timing is
// benches/init.mjs's business, not this test's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../www/serve.mjs';
import { launch, watch } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server;
let url;
let browser;

before(async () => {
  ({ server, url } = await serve({ dir: root }));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('editblocks/lite loads with init() in Chromium and gives the full entry\'s results for the seeds', async () => {
  const seeds = path.join(root, '../shared/seeds');
  const replies = fs.readdirSync(seeds).sort().slice(0, 6).map((f) => fs.readFileSync(path.join(seeds, f), 'utf8'));
  assert.ok(replies.length >= 3, 'the shared seeds are there');
  // Lite's intra-line diff segments graphemes with Chromium's Intl.Segmenter.
  const pairs = JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/render/graphemes/pairs.json'), 'utf8'));
  assert.ok(pairs.length >= 20);
  const page = await browser.context.newPage();
  const seen = watch(page);
  const fetched = [];
  page.on('request', (r) => fetched.push(path.basename(new URL(r.url()).pathname)));
  await page.goto(`${url}/pkg/package.json`);
  const out = await page.evaluate(async ({ base, replies, pairs }) => {
    const run = async (entry) => {
      const eb = await import(`${base}/pkg/web/${entry}`);
      await eb.init();
      const graphemes = pairs.map(([old, now]) => eb.diffBlock(old, now));
      return [graphemes, ...replies.map((reply) => {
        const blocks = eb.parseEdits(reply);
        const stream = new eb.EditStream();
        const events = [];
        const pending = [];
        for (let i = 0; i < reply.length; i += 97) {
          events.push(...stream.feed(reply.slice(i, i + 97)));
          pending.push(eb.renderInProgressEditBlock(stream));
        }
        events.push(...stream.finish());
        return {
          blocks,
          events,
          pending,
          html: blocks.map((b, i) => eb.renderEditBlock(b, [{ blockIndex: i, filePath: b.filePath, status: 'applied', estimatedLine: 2 }], { index: i })),
          diffs: blocks.map((b) => eb.diffBlock(b.oldLines, b.newLines)),
          summary: eb.renderEditsSummary(blocks.map((b) => ({ filePath: b.filePath, status: 'failed', reason: 'x' }))),
        };
      })];
    };
    const lite = await run('lite.js');
    const names = Object.keys(await import(`${base}/pkg/web/lite.js`)).sort();
    const full = await run('index.js');
    return { lite, full, names };
  }, { base: url, replies, pairs });
  assert.ok(out.lite.slice(1).some((r) => r.blocks.length > 0), 'the seeds hold blocks');
  assert.ok(out.lite[0].every((d) => d.some((l) => l.spans)), 'every grapheme pair is diffed inside the line');
  assert.deepEqual(out.lite, out.full);
  assert.ok(out.names.includes('parseEdits') && !out.names.includes('applyEdits'));
  assert.ok(fetched.includes('editblocks_lite_bg.wasm'), `fetched: ${fetched.join(', ')}`);
  assert.deepEqual(seen.errors, []);
  await page.close();
});
