// The renderers in a real page (headless Chromium, the package's style.css
// only): the live preview streamed through every format, themes, folded
// file changes, the two-column layout, and axe-core's accessibility rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedRepository } from './chromium.mjs';
import { openRenderPage, files, reply } from './render-support.mjs';

const served = servedRepository();

// Runs in the page: streams `reply` in chunks of `step` characters, applies each incremental
// render to one element and checks, after every chunk, what a user would see.
async function streamAndCheck({ files, reply, step }) {
  const eb = await import('/pkg/web/index.js');
  await eb.init();
  const live = document.createElement('div');
  document.getElementById('root').append(live);
  const stream = new eb.EditStream({ preview: { files } });
  const problems = [];
  const seen = { formats: new Set(), states: new Set(), betweenBlocks: 0, patchNumbered: 0, typed: 0, chunks: 0 };
  // The first of each kind of problem, with where the reply was.
  const kinds = new Set();
  const note = (at, what) => {
    const kind = what.replace(/[\d.]+/g, 'N').slice(0, 40);
    if (kinds.has(kind)) return;
    kinds.add(kind);
    problems.push(`${what} (at ${at}: ${JSON.stringify(reply.slice(Math.max(0, at - 30), at))})`);
  };
  const check = (at) => {
    const full = eb.renderInProgressEditBlock(stream);
    const block = live.querySelector('.eb-block');
    if (full === '') {
      seen.betweenBlocks++;
      if (block !== null) note(at, `no block is open, yet the page still shows one (${block.querySelector('.eb-badge')?.textContent})`);
      return;
    }
    if (block === null) return note(at, 'a block is open but nothing is drawn');
    const probe = document.createElement('div');
    probe.innerHTML = full;
    if (probe.innerHTML !== live.innerHTML) note(at, 'the incremental render differs from the full render');
    const state = block.querySelector('.eb-preview-header')?.dataset.previewState;
    seen.states.add(state);
    // Line numbers fit their column.
    for (const num of block.querySelectorAll('.eb-num')) {
      if (num.textContent !== '' && num.scrollWidth > num.clientWidth + 0.5) note(at, `line number ${num.textContent} overflows its column (${num.scrollWidth} > ${num.clientWidth})`);
    }
    // The line being typed sits in the text column, like the rows above it.
    const typing = block.querySelector('.eb-preview-partial .eb-text');
    const row = block.querySelector('.eb-preview-rows .eb-line .eb-text, .eb-preview-above .eb-line .eb-text');
    if (typing !== null && typing.textContent.trim() !== '') {
      seen.typed++;
      if (/^\s*(\*|@@|---|\+\+\+)/.test(typing.textContent)) note(at, `a marker being typed is drawn as content: ${JSON.stringify(typing.textContent)}`);
      if (row !== null && Math.abs(typing.getBoundingClientRect().left - row.getBoundingClientRect().left) > 1) {
        note(at, `the typed line starts at x=${typing.getBoundingClientRect().left}, the rows' text at x=${row.getBoundingClientRect().left}`);
      }
    }
    // Unchanged lines are context, not removed and added again.
    const removed = new Set([...block.querySelectorAll('.eb-preview-rows .eb-line-removed .eb-text')].map((e) => e.textContent));
    for (const added of block.querySelectorAll('.eb-preview-rows .eb-line-added .eb-text')) {
      if (removed.has(added.textContent)) note(at, `unchanged line ${JSON.stringify(added.textContent)} drawn as removed and added`);
    }
    // Located rows carry the new side's numbers (patches included).
    if (state === 'located') {
      const isPatch = block.classList.contains('eb-preview-patch');
      for (const r of block.querySelectorAll('.eb-preview-rows .eb-line-added, .eb-preview-rows .eb-line-context')) {
        if (!r.dataset.newLine || r.querySelector('.eb-num-new').textContent === '') note(at, `a ${r.className} row has no new-side number`);
        else if (isPatch) seen.patchNumbered++;
      }
    }
  };
  for (let i = 0; i < reply.length; i += step) {
    for (const e of stream.feed(reply.slice(i, i + step))) if (e.type === 'block-complete') seen.formats.add(e.block.format);
    eb.applyPreviewDelta(live, eb.renderInProgressEditBlock(stream, { incremental: true }));
    seen.chunks++;
    check(Math.min(i + step, reply.length));
  }
  for (const e of stream.finish()) if (e.type === 'block-complete') seen.formats.add(e.block.format);
  eb.applyPreviewDelta(live, eb.renderInProgressEditBlock(stream, { incremental: true }));
  const after = live.innerHTML;
  return { problems, after, formats: [...seen.formats].sort(), states: [...seen.states].sort(), betweenBlocks: seen.betweenBlocks, patchNumbered: seen.patchNumbered, typed: seen.typed, chunks: seen.chunks };
}

test('the live preview streams every format into a page: numbers fit, nothing stays after a block, the typed line is aligned, patches are numbered', async () => {
  const { page, seen } = await openRenderPage(served);
  for (const step of [3, 11]) {
    const r = await page.evaluate(streamAndCheck, { files, reply, step });
    assert.deepEqual(r.problems, [], `step ${step}`);
    assert.deepEqual(r.formats, ['anchored', 'apply-patch', 'edit-repl', 'search-replace', 'unified-diff']);
    assert.ok(r.states.includes('located'), JSON.stringify(r.states));
    assert.ok(r.betweenBlocks > 10, 'the prose between blocks was checked');
    assert.ok(r.patchNumbered > 0, 'patch rows were checked');
    assert.ok(r.typed > 20, 'typed lines were checked');
    assert.equal(r.after, '', 'nothing is left once the reply is finished');
  }
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});
