// Shared by the browser tests: Debian's Chromium through playwright-core,
// headless, with a fresh profile per launch (no downloads, no network noise).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

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
