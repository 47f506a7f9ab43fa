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

// Runs in the page: draws every renderer's output into #root with `theme`, and a live preview
// stopped in the middle of a block.
async function drawAll({ files, reply, theme }) {
  const eb = await import('/pkg/web/index.js');
  await eb.init();
  const root = document.getElementById('root');
  root.innerHTML = '';
  const block = { format: 'edit-repl', filePath: 'src/pipeline.py', anchor: 'def process(items):', oldLines: '    step_two(items)', newLines: '    step_two_sorted(items)', trailingAnchor: '' };
  const applied = { blockIndex: 0, path: 'src/pipeline.py', status: 'applied', estimatedLine: 11 };
  const failed = { blockIndex: 1, path: 'src/load.py', status: 'failed', errorKind: 'old-mismatch', reason: 'The old lines were not found in src/load.py; line 14 is the closest.' };
  const skipped = { blockIndex: 2, path: 'app.py', status: 'skipped', reason: 'An earlier edit of app.py failed.' };
  const before = files['n.txt'];
  const after = before.replace('line_15 = step(15)\n', 'line_15 = step(15) * 2\n');
  const parts = [
    eb.renderEditBlock(block, [applied], { theme }),
    eb.renderEditBlock({ ...block, filePath: 'src/load.py' }, [failed], { index: 1, theme }),
    eb.renderEditBlock({ ...block, filePath: 'app.py' }, [skipped], { index: 2, theme, layout: 'side-by-side' }),
    eb.renderInProgressEditBlock('src/pipeline.py', ['««« EDIT', 'def process(items):', '═══════ REPL', 'def process(items):', '    step'], { theme }),
    eb.renderEditsSummary({ results: [applied, failed, skipped], filesCreated: ['notes.txt'], filesAutoAdded: ['README.md'], shellSuggestions: ['python -m pytest'], retryPrompt: 'retry' }, { theme }),
    eb.renderFileChange({ path: 'n.txt', before, after }, { status: 'applied', theme }),
    eb.renderFileChange({ path: 'n.txt', before, after }, { status: 'validated', theme, layout: 'side-by-side', context: 'all' }),
  ];
  const stream = new eb.EditStream({ preview: { files } });
  stream.feed(reply.slice(0, reply.indexOf('        data = f.read()') + 12));
  parts.push(eb.renderInProgressEditBlock(stream, { theme }));
  stream.finish();
  root.innerHTML = parts.join('\n');
  const unreachable = [...root.querySelectorAll('[data-action]')].filter((e) => e.tabIndex < 0).map((e) => e.outerHTML.slice(0, 80));
  return { blocks: root.querySelectorAll('.eb-block').length, actions: root.querySelectorAll('[data-action]').length, unreachable };
}

const axePath = new URL('../../node_modules/axe-core/axe.min.js', import.meta.url).pathname;

for (const scheme of ['light', 'dark']) {
  test(`axe-core finds no serious or critical violation in any renderer's output (${scheme})`, async () => {
    const { page, seen } = await openRenderPage(served, { colorScheme: scheme });
    for (const theme of ['auto', scheme]) {
      const drawn = await page.evaluate(drawAll, { files, reply, theme });
      assert.equal(drawn.blocks, 7, JSON.stringify(drawn));
      assert.ok(drawn.actions >= 15, JSON.stringify(drawn));
      assert.deepEqual(drawn.unreachable, [], 'every action element is focusable');
      await page.addScriptTag({ path: axePath });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run('#root', { resultTypes: ['violations'] });
        return r.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes[0].html.slice(0, 120)} ${v.nodes[0].failureSummary?.slice(0, 160)}`);
      });
      assert.deepEqual(violations, [], `theme ${theme}`);
    }
    assert.deepEqual(seen.errors, []);
    await page.close();
  });
}

test("theme: 'light' and 'dark' hold whatever the system prefers; 'auto' follows it", async () => {
  for (const scheme of ['light', 'dark']) {
    const { page } = await openRenderPage(served, { colorScheme: scheme });
    const backgrounds = await page.evaluate(async () => {
      const eb = await import('/pkg/web/index.js');
      await eb.init();
      const root = document.getElementById('root');
      const block = { format: 'edit-repl', filePath: 'a.py', anchor: '', oldLines: 'x = 1', newLines: 'x = 2', trailingAnchor: '' };
      const out = {};
      for (const theme of ['light', 'dark', 'auto']) {
        root.innerHTML = eb.renderEditBlock(block, undefined, { theme }) + eb.renderEditsSummary([], { theme }) + eb.renderFileChange({ path: 'a.py', before: 'x\n', after: 'y\n' }, { theme });
        out[theme] = [...root.children].map((e) => getComputedStyle(e).backgroundColor);
      }
      return out;
    });
    const white = 'rgb(255, 255, 255)';
    const dark = 'rgb(13, 17, 23)';
    assert.deepEqual(backgrounds.light, [white, white, white], scheme);
    assert.deepEqual(backgrounds.dark, [dark, dark, dark], scheme);
    assert.deepEqual(backgrounds.auto, scheme === 'dark' ? [dark, dark, dark] : [white, white, white]);
    await page.close();
  }
});

test('a long file change is folded around its change; side by side puts the old and new line on one row', async () => {
  const { page } = await openRenderPage(served);
  const r = await page.evaluate(async () => {
    const eb = await import('/pkg/web/index.js');
    await eb.init();
    const root = document.getElementById('root');
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 1500\n', 'line fifteen hundred\n');
    root.innerHTML = eb.renderFileChange({ path: 'big.txt', before, after });
    const folded = { rows: root.querySelectorAll('.eb-line').length, folds: [...root.querySelectorAll('.eb-fold[data-action="expand"]')].map((f) => `${f.dataset.oldLine}+${f.dataset.count}`), hunk: root.querySelector('.eb-hunk')?.textContent, bytes: root.innerHTML.length };
    root.innerHTML = eb.renderFileChange({ path: 'big.txt', before, after }, { context: 'all' });
    const whole = root.querySelectorAll('.eb-line').length;
    root.innerHTML = eb.renderFileChange({ path: 'big.txt', before, after }, { layout: 'side-by-side', context: 1 });
    const oldSide = root.querySelector('.eb-half-old.eb-line-removed');
    const newSide = root.querySelector('.eb-half-new.eb-line-added');
    const a = oldSide.getBoundingClientRect();
    const b = newSide.getBoundingClientRect();
    return { folded, whole, sameRow: Math.abs(a.top - b.top) < 1, leftToRight: a.right <= b.left + 1, texts: [oldSide.querySelector('.eb-text').textContent, newSide.querySelector('.eb-text').textContent] };
  });
  assert.deepEqual(r.folded.folds, ['1+1496', '1504+1497']);
  assert.equal(r.folded.hunk, '@@ -1497,7 +1497,7 @@');
  assert.equal(r.folded.rows, 2 + 1 + 8, JSON.stringify(r.folded));
  assert.ok(r.folded.bytes < 10000, `${r.folded.bytes} bytes`);
  assert.equal(r.whole, 3001);
  assert.ok(r.sameRow && r.leftToRight, JSON.stringify(r));
  assert.deepEqual(r.texts, ['line 1500', 'line fifteen hundred']);
  await page.close();
});
