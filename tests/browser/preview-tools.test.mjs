// The tool-call and patch previews in headless Chromium (the web build):
// ToolCallPreview fed the fixtures' arguments a few UTF-16 code units at a
// time, and EditStream({ preview }) fed the patch fixtures, give what the
// fixtures expect (tests/fixtures/preview_tools, tests/fixtures/preview_patch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedRepository, watch } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const served = servedRepository();

function readFiles(dir, base = dir, out = {}) {
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isDirectory()) readFiles(p, base, out);
    else out[path.relative(base, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
  }
  return out;
}

function cases(folder, read) {
  const dir = path.join(root, 'tests', 'fixtures', folder);
  return fs.readdirSync(dir).sort().map((name) => ({ name, files: readFiles(path.join(dir, name, 'files')), expected: JSON.parse(fs.readFileSync(path.join(dir, name, 'expected.json'), 'utf8')), ...read(path.join(dir, name)) }));
}

test('ToolCallPreview and patch previews in the browser give the fixtures’ results', async () => {
  const tools = cases('preview_tools', (d) => ({ tool: fs.readFileSync(path.join(d, 'tool.txt'), 'utf8').trim(), args: fs.readFileSync(path.join(d, 'arguments.json'), 'utf8') }));
  const patches = cases('preview_patch', (d) => ({ reply: fs.readFileSync(path.join(d, 'reply.md'), 'utf8') }));
  assert.ok(tools.length >= 12 && patches.length >= 10, 'fixture folders look incomplete');
  const page = await served.browser.context.newPage();
  const seen = watch(page);
  await page.goto(`${served.base}/www/?theme=light`);
  await page.waitForSelector('body[data-phase="ready"]', { timeout: 20000 });
  const out = await page.evaluate(
    async ({ tools, patches }) => {
      const eb = await import('/pkg/web/index.js');
      await eb.init();
      const brief = (s) =>
        s.state === 'searching'
          ? `searching ${s.count} at [${s.lines.join(', ')}]`
          : s.state === 'located'
            ? `located ${s.line}`
            : s.state === 'ambiguous'
              ? `ambiguous [${s.lines.join(', ')}]`
              : s.state === 'no-match'
                ? `no-match since ${s.since} (${s.errorKind})`
                : s.state;
      const toolResults = tools.map((c) => {
        const p = new eb.ToolCallPreview({ name: c.tool, files: c.files });
        const events = [];
        for (let i = 0; i < c.args.length; i += 3) events.push(...p.feed(c.args.slice(i, i + 3)));
        events.push(...p.finish());
        const r = { name: c.name, events, final: brief(p.preview()), content: p.previewContent() };
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
            if ((e.type === 'block-complete' || e.type === 'block-discarded') && e.preview) finals.push(`${e.block?.filePath ?? e.filePath}: ${brief(e.preview)}`);
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
  for (const [i, c] of tools.entries()) {
    const r = out.toolResults[i];
    assert.deepEqual(r.events, c.expected.events, `${c.name}: events`);
    assert.equal(r.final, c.expected.final, `${c.name}: final state`);
    assert.equal(r.content, c.expected.content, `${c.name}: content`);
  }
  for (const [i, c] of patches.entries()) {
    const r = out.patchResults[i];
    assert.deepEqual(r.events, c.expected.events, `${c.name}: events`);
    assert.deepEqual(r.finals, c.expected.finals, `${c.name}: final states`);
  }
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('applyPreviewDelta builds, chunk by chunk, the DOM the full render draws, for a patch section', async () => {
  const page = await served.browser.context.newPage();
  const seen = watch(page);
  await page.goto(`${served.base}/www/?theme=light`);
  await page.waitForSelector('body[data-phase="ready"]', { timeout: 20000 });
  const result = await page.evaluate(async () => {
    const eb = await import('/pkg/web/index.js');
    await eb.init();
    const file = Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? '' : `  value_${i} = compute(${i})`)).join('\n') + '\n';
    const lines = file.split('\n');
    const body = [];
    for (let i = 20; i < 34; i++) body.push(i % 3 ? ` ${lines[i]}` : `-${lines[i]}\n+${lines[i].replace('compute', 'fast')}`);
    const reply = `Change.\n\n*** Begin Patch\n*** Update File: src/x.py\n@@\n${body.join('\n')}\n@@\n ${lines[40]}\n-${lines[41]}\n+done\n*** End Patch\n`;
    const stream = new eb.EditStream({ preview: { files: { 'src/x.py': file } } });
    const live = document.createElement('div');
    const fresh = document.createElement('div');
    let mismatches = 0;
    let checks = 0;
    let resets = 0;
    const end = reply.length - 16;
    for (let i = 0; i < end; i += 3) {
      stream.feed(reply.slice(i, Math.min(i + 3, end)));
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
    return { mismatches, checks, resets, state, removed: live.querySelectorAll('.eb-line-removed').length };
  });
  assert.ok(result.checks > 50, JSON.stringify(result));
  assert.equal(result.mismatches, 0, JSON.stringify(result));
  assert.ok(result.resets <= 6, `a full redraw only when the layout changes: ${result.resets}`);
  assert.equal(result.state.state, 'located');
  assert.equal(result.state.section, 2);
  assert.deepEqual(seen.errors, []);
  await page.close();
});
