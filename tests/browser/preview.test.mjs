// The live preview in headless Chromium: the demo streams a reply against its
// in-memory project and draws the open block in place (state, real file line
// numbers, the reason once it can no longer apply); and the incremental
// render, applied to the DOM with applyPreviewDelta, builds what the full
// render draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedRepository } from './chromium.mjs';
import { openDemo, replayDeltas } from './preview-support.mjs';

const served = servedRepository();

test('the demo shows where a streaming block lands, then that the next one cannot apply, while the reply streams', async () => {
  const { page, seen } = await openDemo(served, 'reply=search-replace&speed=120&theme=light');
  await page.click('#stream');

  // The page redraws every tick: read each state in one go, when it shows.
  const snapshot = (state) =>
    page
      .waitForFunction(
        (want) => {
          const h = document.querySelector(`.eb-preview .eb-preview-header[data-preview-state="${want}"]`);
          const p = h && h.closest('.eb-preview');
          const row = p && p.querySelector('.eb-preview-rows .eb-line');
          if (!row) return null;
          return {
            phase: document.body.dataset.phase,
            line: Number(h.dataset.line),
            path: p.dataset.filePath,
            rowLine: Number(row.dataset.oldLine),
            above: p.querySelectorAll('.eb-preview-above .eb-line-context').length,
            label: p.querySelector('.eb-preview-state').textContent,
            reason: p.querySelector('.eb-reason')?.textContent ?? null,
            status: document.getElementById('status').textContent,
          };
        },
        state,
        { timeout: 30000, polling: 'raf' },
      )
      .then((handle) => handle.jsonValue());

  // The first block: located in src/config.ts, its old line shown with its real line number.
  const located = await snapshot('located');
  assert.equal(located.phase, 'streaming');
  assert.equal(located.path, 'src/config.ts');
  assert.ok(located.line > 1, 'a real file line');
  assert.equal(located.rowLine, located.line);
  assert.ok(located.above > 0, 'context above the block');
  assert.match(located.label, new RegExp(`located at line ${located.line}`));

  // The second block quotes a line the file does not have: no-match, with the reason, while still streaming.
  const noMatch = await snapshot('no-match');
  assert.equal(noMatch.phase, 'streaming');
  assert.match(noMatch.reason, /timeoutMs: 3000/);
  assert.match(noMatch.status, /can no longer apply \(src\/config\.ts, reply line \d+\)/);

  await page.waitForSelector('body[data-phase="done"]', { timeout: 60000 });
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

test('applyPreviewDelta builds, chunk by chunk, the DOM the full render draws', async () => {
  const { page, seen } = await openDemo(served);
  const file = Array.from({ length: 60 }, (_, i) => `  value_${i} = compute(${i})`).join('\n') + '\n';
  const old = file.split('\n').slice(20, 30);
  const neu = old.map((l, i) => (i % 2 ? l.replace('compute', 'compute_fast') : l));
  const reply = `Change.\n\nsrc/x.py\n<<<<<<< SEARCH\n${old.join('\n')}\n=======\n${neu.join('\n')}\n>>>>>>> REPLACE\n`;
  const result = await page.evaluate(replayDeltas, {
    files: { 'src/x.py': file },
    reply,
    step: 4,
    stop: 18,
    count: { added: '.eb-line-added', changes: '.eb-line-added .eb-change' },
  });
  assert.ok(result.checks > 100, JSON.stringify(result));
  assert.equal(result.mismatches, 0, JSON.stringify(result));
  assert.ok(result.resets <= 4, `a full redraw only when the layout changes: ${result.resets}`);
  assert.equal(result.state.state, 'located');
  assert.equal(result.state.line, 21);
  // The state names its file `path`, as results do; `filePath` is its deprecated alias.
  assert.equal(result.state.path, 'src/x.py');
  assert.equal(result.state.filePath, 'src/x.py');
  assert.ok(result.added >= 9 && result.changes >= 4, JSON.stringify(result));
  assert.deepEqual(seen.errors, []);
  await page.close();
});
