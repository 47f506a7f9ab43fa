// The browser entry under a Content-Security-Policy. Compiling WebAssembly
// needs 'wasm-unsafe-eval' in script-src: with it, init() loads and the page
// renders; without it, init() rejects with an error that names the fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../www/serve.mjs';
import { launch } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function outcomeUnder(policy) {
  const { server, url } = await serve({ dir: root, headers: { 'Content-Security-Policy': policy } });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${url}/tests/browser/csp/index.html`);
    await page.waitForFunction(() => document.body.dataset.outcome !== undefined, null, { timeout: 20000 });
    const outcome = await page.evaluate(() => ({ outcome: document.body.dataset.outcome, blocks: document.querySelectorAll('.eb-block').length }));
    await page.close();
    return outcome;
  } finally {
    server.close();
  }
}

test("under script-src 'self' 'wasm-unsafe-eval' init() loads and the block renders", async () => {
  assert.deepEqual(await outcomeUnder("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"), { outcome: 'loaded', blocks: 1 });
});

test("under script-src 'self' alone init() rejects with the policy to add", async () => {
  const { outcome, blocks } = await outcomeUnder("default-src 'self'; script-src 'self'");
  assert.equal(blocks, 0);
  assert.match(outcome, /^failed: editblocks: the page's Content-Security-Policy does not allow WebAssembly/);
  assert.match(outcome, /'wasm-unsafe-eval'/);
});
