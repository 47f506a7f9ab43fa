// The tool-call and patch previews in headless Chromium (the web build):
// ToolCallPreview fed the fixtures' arguments a few UTF-16 code units at a
// time, and EditStream({ preview }) fed the patch fixtures, give what the
// fixtures expect (tests/fixtures/preview_tools, tests/fixtures/preview_patch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedRepository } from './chromium.mjs';
import { fixtureCases, patchRunAsFixture, readText, toolRunAsFixture } from '../fixture_support/preview.mjs';
import { openDemo, replayDeltas } from './preview-support.mjs';

const served = servedRepository();

test('ToolCallPreview and patch previews in the browser give the fixtures’ results', async () => {
  const tools = fixtureCases('preview_tools', 12, (d) => ({ tool: readText(d, 'tool.txt').trim(), args: readText(d, 'arguments.json') }));
  const patches = fixtureCases('preview_patch', 10, (d) => ({ reply: readText(d, 'reply.md') }));
  const { page, seen } = await openDemo(served);
  const out = await page.evaluate(
    async ({ tools, patches }) => {
      const eb = await import('/pkg/web/index.js');
      await eb.init();
      const { runPatchPreview, runToolPreview } = await import('/tests/fixture_support/preview-runs.mjs');
      const pieces = (text, n) => Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, i * n + n));
      const toolResults = tools.map((c) => runToolPreview(eb, c.tool, c.files, pieces(c.args, 3)));
      const patchResults = [];
      for (const c of patches) patchResults.push(await runPatchPreview(eb, c.files, pieces(c.reply, 5), 'files'));
      return { toolResults, patchResults };
    },
    { tools, patches },
  );
  // Events and states name the file `path` (checked equal to `filePath`, then left out).
  for (const [i, c] of tools.entries()) {
    const r = toolRunAsFixture(out.toolResults[i], c.name);
    assert.deepEqual(r.events, c.expected.events, `${c.name}: events`);
    assert.equal(r.final, c.expected.final, `${c.name}: final state`);
    assert.equal(r.content, c.expected.content, `${c.name}: content`);
  }
  for (const [i, c] of patches.entries()) {
    const r = patchRunAsFixture(out.patchResults[i], c.name);
    assert.deepEqual(r.events, c.expected.events, `${c.name}: events`);
    assert.deepEqual(r.finals, c.expected.finals, `${c.name}: final states`);
  }
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('applyPreviewDelta builds, chunk by chunk, the DOM the full render draws, for a patch section', async () => {
  const { page, seen } = await openDemo(served);
  const file = Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? '' : `  value_${i} = compute(${i})`)).join('\n') + '\n';
  const lines = file.split('\n');
  const body = [];
  for (let i = 20; i < 34; i++) body.push(i % 3 ? ` ${lines[i]}` : `-${lines[i]}\n+${lines[i].replace('compute', 'fast')}`);
  const reply = `Change.\n\n*** Begin Patch\n*** Update File: src/x.py\n@@\n${body.join('\n')}\n@@\n ${lines[40]}\n-${lines[41]}\n+done\n*** End Patch\n`;
  const result = await page.evaluate(replayDeltas, {
    files: { 'src/x.py': file },
    reply,
    step: 3,
    stop: 16,
    count: { removed: '.eb-line-removed' },
  });
  assert.ok(result.checks > 50, JSON.stringify(result));
  assert.equal(result.mismatches, 0, JSON.stringify(result));
  assert.ok(result.resets <= 6, `a full redraw only when the layout changes: ${result.resets}`);
  assert.equal(result.state.state, 'located');
  assert.equal(result.state.section, 2);
  assert.deepEqual(seen.errors, []);
  await page.close();
});
