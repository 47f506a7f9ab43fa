// The tool-call and patch previews in headless Chromium (the web build):
// ToolCallPreview fed the fixtures' arguments a few UTF-16 code units at a
// time, and EditStream({ preview }) fed the patch fixtures, give what the
// fixtures expect (tests/fixtures/preview_tools, tests/fixtures/preview_patch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedRepository } from './chromium.mjs';
import { brief, fixtureCases, readText, withoutPathAlias } from '../fixture_support/preview.mjs';
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
      const toolResults = tools.map((c) => {
        const p = new eb.ToolCallPreview({ name: c.tool, files: c.files });
        const events = [];
        for (let i = 0; i < c.args.length; i += 3) events.push(...p.feed(c.args.slice(i, i + 3)));
        events.push(...p.finish());
        const r = { name: c.name, events, final: p.preview(), content: p.previewContent() };
        p.free();
        return r;
      });
      const patchResults = patches.map((c) => {
        const stream = new eb.EditStream({ preview: { files: c.files } });
        const events = [];
        const finals = [];
        const take = (evs) => {
          for (const e of evs) {
            if (e.type === 'block-located' || e.type === 'block-unmatched') {
              const { lineNumber, ...rest } = e;
              events.push(rest);
            }
            if ((e.type === 'block-complete' || e.type === 'block-discarded') && e.preview) finals.push([e.block?.filePath ?? e.filePath, e.preview]);
          }
        };
        for (let i = 0; i < c.reply.length; i += 5) take(stream.feed(c.reply.slice(i, i + 5)));
        take(stream.finish());
        return { name: c.name, events, finals };
      });
      return { toolResults, patchResults };
    },
    { tools, patches },
  );
  // Events and the tool preview's state name the file `path` (checked equal to `filePath`, then left out).
  for (const [i, c] of tools.entries()) {
    const r = out.toolResults[i];
    assert.deepEqual(r.events.map((e) => withoutPathAlias(e, `${c.name}: event`)), c.expected.events, `${c.name}: events`);
    assert.equal(brief(withoutPathAlias(r.final, `${c.name}: state`)), c.expected.final, `${c.name}: final state`);
    assert.equal(r.content, c.expected.content, `${c.name}: content`);
  }
  for (const [i, c] of patches.entries()) {
    const r = out.patchResults[i];
    assert.deepEqual(r.events.map((e) => withoutPathAlias(e, `${c.name}: event`)), c.expected.events, `${c.name}: events`);
    assert.deepEqual(r.finals.map(([file, s]) => `${file}: ${brief(s)}`), c.expected.finals, `${c.name}: final states`);
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
