// The www/ demo in headless Chromium: served on localhost from the repository
// root (www/serve.mjs), on the built package's browser entry (pkg/web).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { artifacts, servedRepository, watch } from './chromium.mjs';

const served = servedRepository();

async function openDemo(query) {
  const page = await served.browser.context.newPage();
  const seen = watch(page);
  await page.goto(`${served.base}/www/?${query}`);
  await page.waitForSelector('body[data-phase="ready"]', { timeout: 20000 });
  return { page, seen };
}

const summaryCounts = (page) =>
  page.$eval('#card-body .eb-summary', (el) => ({
    applied: Number(el.dataset.applied),
    failed: Number(el.dataset.failed),
    skipped: Number(el.dataset.skipped),
  }));

test('a reply streams with an in-progress block, then applies with a summary', async () => {
  const { page, seen } = await openDemo('reply=edit-repl&speed=300&theme=light');
  await page.click('#stream');

  // While the first block is being written it is drawn as in progress.
  const pending = await page.waitForSelector('#card-body .eb-block-pending', { timeout: 15000 });
  assert.equal(await pending.getAttribute('data-file-path'), 'src/pipeline.py');
  assert.equal(await pending.$eval('.eb-badge', (b) => b.textContent), 'Writing…');
  assert.ok(await pending.$('.eb-cursor'), 'the in-progress block shows a cursor');
  await page.waitForSelector('body[data-phase="streaming"] #card-body .eb-block:not(.eb-block-pending)', { timeout: 15000 });

  await page.waitForSelector('body[data-phase="done"]', { timeout: 60000 });
  assert.deepEqual(await summaryCounts(page), { applied: 4, failed: 0, skipped: 0 });
  const statuses = await page.$$eval('#card-body .eb-block', (els) => els.map((e) => e.dataset.status));
  assert.deepEqual(statuses, ['applied', 'applied', 'applied', 'applied']);
  assert.equal(await page.$$eval('#card-body .eb-block-pending', (els) => els.length), 0);
  // Character-level highlights made it into the page, and the new file is tagged.
  assert.ok((await page.$$('#card-body .eb-line-added .eb-change')).length > 0);
  assert.ok(await page.$('#card-body .eb-block-create[data-file-path="docs/CHANGELOG.md"]'));
  // Seed 004's click target: the path opens the file at the edit.
  await page.click('#card-body .eb-block[data-file-path="src/greeting.js"] .eb-path');
  assert.equal(await page.textContent('#viewer-title'), 'src/greeting.js');
  assert.match(await page.textContent('#viewer-code'), /Hello there/);
  await page.keyboard.press('Escape');

  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, 'demo-applied.png'), fullPage: true });
  await page.click('[data-theme="dark"]');
  await page.screenshot({ path: path.join(artifacts, 'demo-applied-dark.png'), fullPage: true });
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

test('a failed edit and the skipped one after it are counted and explained', async () => {
  const { page, seen } = await openDemo('reply=search-replace&speed=4000&theme=light');
  await page.click('#stream');
  await page.waitForSelector('body[data-phase="done"]', { timeout: 60000 });
  assert.deepEqual(await summaryCounts(page), { applied: 1, failed: 1, skipped: 1 });
  const reason = await page.textContent('#card-body .eb-block.eb-status-failed .eb-reason');
  assert.ok(reason.length > 20, `a reason a model can act on: ${reason}`);
  assert.equal(await page.$$eval('#card-body .eb-summary .eb-failure', (els) => els.length), 2);
  await page.screenshot({ path: path.join(artifacts, 'demo-failures.png'), fullPage: true });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('an ambiguous anchor fails, and the summary notes the prepared retry prompt', async () => {
  const { page, seen } = await openDemo('reply=ambiguous&speed=4000&theme=light');
  await page.click('#stream');
  await page.waitForSelector('body[data-phase="done"]', { timeout: 60000 });
  assert.deepEqual(await summaryCounts(page), { applied: 0, failed: 1, skipped: 0 });
  assert.equal(await page.getAttribute('#card-body .eb-block .eb-badge', 'data-error-kind'), 'ambiguous');
  assert.ok(await page.$('#card-body .eb-summary .eb-retry-note'), 'the retry note shows');
  assert.match(await page.inputValue('#card-body .follow-up textarea'), /src\/greeting\.js/);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('paths and lines holding <script> and <img onerror> render as text and run nothing', async () => {
  // Slow enough that the in-progress block stays on screen long enough to be checked.
  const { page, seen } = await openDemo('reply=hostile&speed=300&theme=light');
  const extra = [
    '',
    'Also this one:',
    '',
    '"><script>window.__ebPwned=5</script>.txt',
    '««« EDIT',
    '═══════ REPL',
    "<img src=x onerror=\"window.__ebPwned=6\"><svg onload='window.__ebPwned=7'>",
    '»»» EDIT END',
    '',
  ].join('\n');
  await page.$eval('#reply', (el, more) => { el.value += more; }, extra);
  await page.click('#stream');
  await page.waitForSelector('#card-body .eb-block-pending', { timeout: 15000 });
  await page.waitForSelector('body[data-phase="done"]', { timeout: 60000 });
  // Give any injected handler (an image error, an svg load) time to fire.
  await page.waitForTimeout(500);

  assert.equal(await page.evaluate(() => window.__ebPwned), undefined, 'no injected script ran');
  assert.deepEqual(seen.dialogs, []);
  const injected = await page.$$eval('#card-body script, #card-body img, #card-body svg, #card-body [onerror], #card-body [onload], #card-body [onmouseover]', (els) => els.length);
  assert.equal(injected, 0, 'no element came from the reply');
  const text = await page.textContent('#card-body');
  assert.ok(text.includes('<script>window.__ebPwned = 2</script>'), 'the line shows as text');
  assert.ok(text.includes('<img src=x onerror="window.__ebPwned=1">'), 'the path shows as text');
  const paths = await page.$$eval('#card-body .eb-block', (els) => els.map((e) => e.dataset.filePath));
  assert.ok(paths.includes('"><script>window.__ebPwned=5</script>.txt'), `attribute values keep the raw path: ${paths.join(' | ')}`);
  await page.screenshot({ path: path.join(artifacts, 'demo-hostile.png'), fullPage: true });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('review: a streamed reply is dry-run, each file accepted or rejected, only accepted files written', async () => {
  const { page, seen } = await openDemo('reply=edit-repl&speed=4000&theme=light&review=1');
  const original = await page.evaluate(() => Object.fromEntries(window.__demo.files));
  await page.click('#stream');
  await page.waitForSelector('body[data-phase="review"]', { timeout: 60000 });

  // Nothing is written by the dry run; every file it would change is shown with its diff.
  assert.deepEqual(await page.evaluate(() => Object.fromEntries(window.__demo.files)), original, 'the dry run wrote nothing');
  const changes = await page.evaluate(() => window.__demo.review.changes);
  const boxes = await page.$$eval('#card-body .review-file', (els) => els.map((e) => e.dataset.filePath));
  assert.deepEqual(boxes, changes.map((c) => c.path));
  assert.ok(boxes.length >= 3, `several files to review: ${boxes.join(', ')}`);
  for (const c of changes) assert.equal(c.before, original[c.path] ?? null, `${c.path}: before is the file as it is`);
  assert.equal(await page.$$eval('#card-body .review-file .eb-block', (els) => els.length), boxes.length, 'each file drawn by renderFileChange');
  assert.ok(await page.$('#card-body .review-file[data-file-path="docs/CHANGELOG.md"] .eb-block-create'), 'a created file is tagged new');

  // Reject one file, accept the others, apply.
  const rejected = 'src/greeting.js';
  assert.ok(boxes.includes(rejected));
  await page.click(`#card-body button[data-review="reject"][data-file-path="${rejected}"]`);
  assert.equal(await page.getAttribute(`#card-body .review-file[data-file-path="${rejected}"]`, 'data-decision'), 'reject');
  await page.click('#apply-accepted');
  await page.waitForSelector('body[data-phase="done"]');

  const files = await page.evaluate(() => Object.fromEntries(window.__demo.files));
  assert.equal(files[rejected], original[rejected], 'the rejected file is unchanged');
  for (const c of changes.filter((c) => c.path !== rejected)) {
    assert.equal(files[c.path] ?? null, c.after, `${c.path}: the accepted content was written`);
  }
  const results = await page.$$eval('#card-body .review-file', (els) => els.map((e) => [e.dataset.filePath, e.dataset.result]));
  assert.deepEqual(results, changes.map((c) => [c.path, c.path === rejected ? 'rejected' : 'written']));
  assert.match(await page.textContent('#status'), new RegExp(`Rejected: ${rejected.replace('.', '\\.')}`));
  await page.screenshot({ path: path.join(artifacts, 'demo-review.png'), fullPage: true });
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});
