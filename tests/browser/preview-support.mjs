// Shared by the preview tests in Chromium (preview.test.mjs,
// preview-tools.test.mjs): opening the demo page, and streaming a reply
// through EditStream({ preview }) in the page while the incremental render,
// applied with applyPreviewDelta, is compared with the full render after
// every chunk.
import { watch } from './chromium.mjs';

/** A new page of the demo (`query`: its URL's search part), once the package is loaded. */
export async function openDemo(served, query = 'theme=light') {
  const page = await served.browser.context.newPage();
  const seen = watch(page);
  await page.goto(`${served.base}/www/?${query}`);
  await page.waitForSelector('body[data-phase="ready"]', { timeout: 20000 });
  return { page, seen };
}

/**
 * Runs in the page (pass it to `page.evaluate`): feeds `reply` against `files` in chunks of `step`
 * characters, up to `stop` characters before its end (so the block is still open), and after each
 * chunk applies the incremental render to one element and draws the full render into another.
 * Returns how many chunks were compared, how many differed, the full redraws, the stream's
 * `preview()` before `finish()`, and the count of each selector of `count` in the live element.
 */
export async function replayDeltas({ files, reply, step, stop, count }) {
  const eb = await import('/pkg/web/index.js');
  await eb.init();
  const stream = new eb.EditStream({ preview: { files } });
  const live = document.createElement('div');
  const fresh = document.createElement('div');
  let mismatches = 0;
  let checks = 0;
  let resets = 0;
  const end = reply.length - stop;
  for (let i = 0; i < end; i += step) {
    stream.feed(reply.slice(i, Math.min(i + step, end)));
    const delta = eb.renderInProgressEditBlock(stream, { incremental: true });
    if (delta === null) continue;
    if (delta.reset !== undefined) resets++;
    eb.applyPreviewDelta(live, delta);
    fresh.innerHTML = eb.renderInProgressEditBlock(stream);
    checks++;
    if (live.innerHTML !== fresh.innerHTML) mismatches++;
  }
  const state = stream.preview();
  stream.finish();
  const counts = {};
  for (const [name, selector] of Object.entries(count)) counts[name] = live.querySelectorAll(selector).length;
  return { mismatches, checks, resets, state, ...counts };
}
