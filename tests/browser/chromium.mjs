// Shared by the browser tests: Debian's Chromium through playwright-core,
// headless, with a fresh profile per launch (no downloads, no network noise).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { serve } from '../../www/serve.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium with a fresh user-data-dir; `close()` removes it. */
export async function launch() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1440, height: 1000 },
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects what a page reports: uncaught errors, console errors, dialogs. */
export function watch(page) {
  const seen = { errors: [], console: [], dialogs: [] };
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') seen.console.push(m.text());
  });
  page.on('dialog', async (d) => {
    seen.dialogs.push(d.message());
    await d.dismiss();
  });
  return seen;
}

export const artifacts = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'artifacts');

const repositoryRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/**
 * For a test file that opens pages of the repository: registers `before` /
 * `after` hooks that serve the repository root on localhost (www/serve.mjs)
 * and launch Chromium. The returned object's `base` (the server's URL) and
 * `browser` are set once the hooks ran.
 */
export function servedRepository() {
  const served = { base: null, browser: null, server: null };
  before(async () => {
    assert.ok(fs.existsSync(path.join(repositoryRoot, 'pkg/web/index.js')), 'pkg/ is not built: run node scripts/build.mjs first');
    ({ server: served.server, url: served.base } = await serve());
    served.browser = await launch();
  });
  after(async () => {
    await served.browser?.close();
    served.server?.close();
  });
  return served;
}
