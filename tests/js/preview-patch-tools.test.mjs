// The live preview of patch operations (apply-patch, unified-diff) and of
// streamed tool-call arguments (ToolCallPreview), through the package, against
// the same fixtures as the Rust tests (tests/fixtures/preview_patch,
// tests/fixtures/preview_tools): the events, final states and files in any
// chunking, with a sync and an async host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as eb from '../../pkg/node/index.mjs';
import { EditStream, ToolCallPreview, renderInProgressEditBlock } from '../../pkg/node/index.mjs';
import { fixtureCases, patchRunAsFixture, readText, root, toolRunAsFixture } from '../fixture_support/preview.mjs';
import { runPatchPreview, runToolPreview } from '../fixture_support/preview-runs.mjs';

// Random cut lengths from a seed, reproducible.
function* cuts(seed, max) {
  let x = seed >>> 0 || 1;
  for (;;) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    yield 1 + (x % max);
  }
}

function chunked(text, seed, max) {
  const out = [];
  const gen = cuts(seed, max);
  for (let i = 0; i < text.length; ) {
    const n = gen.next().value;
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

async function runPatch(files, chunks, asyncHost, name) {
  return patchRunAsFixture(await runPatchPreview(eb, files, chunks, asyncHost ? 'async-host' : 'host'), name);
}

test('patch previews: fixtures give their events and final states in any chunking', async () => {
  for (const { name, files, expected, reply } of fixtureCases('preview_patch', 10, (d) => ({ reply: readText(d, 'reply.md') }))) {
    const fin = expected.finals.map((f) => f.replace(/^\.\.\/outside\.py/, '../outside.py'));
    for (const [label, chunks] of [
      ['whole', [reply]],
      ['chars', [...reply]],
      ['random', chunked(reply, name.length * 7919, 9)],
    ]) {
      const r = await runPatch(files, chunks, false, name);
      assert.deepEqual(r.events, expected.events, `${name} (${label}): events`);
      assert.deepEqual(r.finals, fin, `${name} (${label}): final states`);
    }
    const a = await runPatch(files, chunked(reply, 17, 13), true, name);
    assert.deepEqual(a.events, expected.events, `${name} (async host): events`);
  }
});

test('patch previews: preview() names the open section while an update streams', () => {
  const file = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const stream = new EditStream({ preview: { files: { 'n.txt': file } } });
  stream.feed('*** Begin Patch\n*** Update File: n.txt\n@@\n line 3\n-line 4\n+four\n');
  assert.deepEqual(stream.preview(), { path: 'n.txt', filePath: 'n.txt', lineNumber: 2, state: 'located', line: 3, section: 1 });
  assert.equal(stream.previewContent(), file.replace('line 4\n', 'four\n'));
  stream.feed('@@\n line 20\n');
  assert.equal(stream.preview().section, 2);
  assert.equal(stream.preview().line, 20);
  const evs = stream.feed('-line 99\n');
  const unmatched = evs.filter((e) => e.type === 'block-unmatched');
  assert.equal(unmatched.length, 1);
  assert.equal(unmatched[0].since, 2);
  assert.match(unmatched[0].reason, /section 2/);
  const done = stream.feed('*** End Patch\n');
  const complete = done.find((e) => e.type === 'block-complete');
  assert.equal(complete.preview.state, 'no-match');
  stream.finish();
});

function runTool(tool, files, chunks, asyncHost, name) {
  return toolRunAsFixture(runToolPreview(eb, tool, files, chunks, asyncHost), name);
}

test('ToolCallPreview: fixtures give their events, final state and file in any chunking', () => {
  const read = (d) => ({ tool: readText(d, 'tool.txt').trim(), args: readText(d, 'arguments.json') });
  for (const { name, files, expected, tool, args } of fixtureCases('preview_tools', 12, read)) {
    // JS strings are UTF-16: cutting between the halves of a surrogate pair must not matter either.
    const units = args.split('');
    for (const [label, chunks] of [
      ['whole', [args]],
      ['code units', units],
      ['random', chunked(args, name.length * 104729, 7)],
      ['random large', chunked(args, name.length * 31, 40)],
    ]) {
      const r = runTool(tool, files, chunks, false, name);
      assert.deepEqual(r.events, expected.events, `${name} (${label}): events`);
      assert.equal(r.final, expected.final, `${name} (${label}): final state`);
      assert.equal(r.content, expected.content, `${name} (${label}): content`);
    }
  }
});

test('ToolCallPreview: an async host answers later; the events come with a later feed or finish', async () => {
  const file = 'a\nb\nc\n';
  const p = new ToolCallPreview({ name: 'edit_file', host: { readFile: async () => file } });
  assert.deepEqual(p.feed('{"path":"f.txt","old_string":"b\\n'), []);
  assert.equal(p.preview().state, 'waiting');
  await new Promise((r) => setImmediate(r));
  const evs = p.feed('","new_string":"B\\n"}');
  assert.deepEqual(evs, [{ type: 'block-located', path: 'f.txt', filePath: 'f.txt', line: 2 }]);
  assert.equal(p.previewContent(), 'a\nB\nc\n');
  assert.deepEqual(p.preview(), { state: 'located', line: 2, path: 'f.txt', filePath: 'f.txt' });
  p.free();
  assert.throws(() => p.feed('x'), /after free/);
});

test('ToolCallPreview: a batched edit_file over a large file gives, in any chunking, what the applier gives', () => {
  // 90 KB: above the size where items wait to be judged together.
  const file = Array.from({ length: 3000 }, (_, i) => `let value_${i} = compute(${i});\n`).join('');
  const edits = Array.from({ length: 400 }, (_, i) => ({ path: 'f.rs', old_string: `value_${i * 7} = compute(`, new_string: `value_${i * 7} = compute2(` }));
  // One the applier refuses (it occurs many times); the preview judges the rest against the file without it.
  edits.splice(200, 0, { path: 'f.rs', old_string: 'compute(1', new_string: 'compute(one' });
  const args = JSON.stringify({ edits });
  const runs = [args.length, 4096, 61, 7].map((size) => {
    const p = new ToolCallPreview({ name: 'edit_file', files: { 'f.rs': file } });
    const events = [];
    for (let i = 0; i < args.length; i += size) events.push(...p.feed(args.slice(i, i + size)));
    events.push(...p.finish());
    const out = { events, content: p.previewContent(), preview: p.preview() };
    p.free();
    return out;
  });
  for (const r of runs.slice(1)) assert.deepEqual(r, runs[0]);
  const { events, content, preview } = runs[0];
  assert.equal(events.filter((e) => e.type === 'block-located').length, 400);
  assert.deepEqual(events.filter((e) => e.type === 'block-unmatched').map((e) => e.errorKind), ['ambiguous']);
  assert.deepEqual(preview, { state: 'located', line: 2794, path: 'f.rs', filePath: 'f.rs', edit: 400 });
  // The applier, given the call without the refused item, writes the same file.
  const host = { files: new Map([['f.rs', file]]), readFile(p) { return this.files.get(p) ?? null; }, writeFile(p, c) { this.files.set(p, c); } };
  const r = eb.applyToolCallsSync([{ name: 'edit_file', arguments: { edits: edits.filter((e) => e.old_string !== 'compute(1') } }], host);
  assert.equal(r.ok, true);
  assert.equal(content, host.files.get('f.rs'));
});

test('ToolCallPreview: refuses bad options and survives hostile input', () => {
  assert.throws(() => new ToolCallPreview(), TypeError);
  assert.throws(() => new ToolCallPreview({ name: 'edit_file' }), /files .* or host/);
  assert.throws(() => new ToolCallPreview({ name: 3, files: {} }), /name/);
  const p = new ToolCallPreview({ name: 'edit_file', files: { 'f.txt': 'x\n' } });
  assert.throws(() => p.feed(5), TypeError);
  for (const junk of ['\ud800', '{"path":"f.txt","old_string":"\\ud83d', '\\u12', ']]]', '{"a":' + '['.repeat(5000), '"\u0000"']) p.feed(junk);
  p.finish();
  assert.equal(p.preview().state, 'no-match');
  p.free();
  const big = new ToolCallPreview({ name: 'str_replace_based_edit_tool', files: { 'f.txt': 'x\n'.repeat(1000) } });
  big.feed('{"command":"str_replace","path":"f.txt","old_str":"');
  for (let i = 0; i < 2000; i++) big.feed('x\\n');
  big.feed('","new_str":"y"}');
  // The file has 1,000 lines of `x`: the old text stops matching at its line 1,001.
  assert.equal(big.preview().state, 'no-match');
  assert.equal(big.preview().since, 1001);
  big.free();
});

test('CLI --stop-on-unmatched stops at a patch section that cannot apply, before the patch ends', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-preview-patch-'));
  const file = 'def area(w, h):\n    return w * h\n';
  fs.writeFileSync(path.join(dir, 'a.py'), file);
  const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');
  const child = spawn(process.execPath, [cli, 'apply', '--root', dir, '--no-stage', '--stop-on-unmatched', '--no-color', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = new Promise((resolve) => child.on('close', resolve));
  child.stdin.on('error', () => {});
  // No `*** End Patch`: the CLI must stop on the section's second line on its own.
  child.stdin.write('*** Begin Patch\n*** Update File: a.py\n@@\n def area(w, h):\n-    return w + h\n');
  const status = await code;
  child.stdin.destroy();
  assert.equal(status, 3, stderr);
  assert.match(stderr, /a\.py/);
  assert.match(stderr, /section 1/);
  assert.equal(fs.readFileSync(path.join(dir, 'a.py'), 'utf8'), file, 'nothing written');
});

test('renderInProgressEditBlock draws the open patch section in place; the incremental form sends what changed', () => {
  const file = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const stream = new EditStream({ preview: { files: { 'n.txt': file } } });
  stream.feed('*** Begin Patch\n*** Update File: n.txt\n@@\n line 3\n-line 4\n+four\n+fi');
  const html = renderInProgressEditBlock(stream);
  assert.match(html, /data-preview-state="located"/);
  assert.match(html, /data-section="1"/);
  assert.match(html, /eb-line-removed" data-row="1" data-old-line="4"/);
  assert.match(html, /eb-line-added" data-row="2"/);
  assert.match(html, /eb-preview-partial"><div class="eb-line eb-line-added eb-preview-typing"><span class="eb-num eb-num-old"><\/span><span class="eb-num eb-num-new"><\/span><span class="eb-sign">\+<\/span><span class="eb-sr">added: <\/span><span class="eb-text">fi</);
  const first = renderInProgressEditBlock(stream, { incremental: true });
  assert.equal(typeof first.reset, 'string');
  assert.deepEqual(renderInProgressEditBlock(stream, { incremental: true }), {});
  stream.feed('ve\n');
  const next = renderInProgressEditBlock(stream, { incremental: true });
  assert.equal(next.reset, undefined, 'only what changed');
  assert.match(next.append, /five/);
  stream.feed('@@\n line 20\n');
  assert.match(renderInProgressEditBlock(stream, { incremental: true }).reset, /data-section="2"/);
  stream.finish();
});

// A tool call whose file is a symbolic link into .git or out of the root:
// nodeHost refuses to read it, the applier says path-escape, and so does
// the preview (not "file not found, create it").
test('ToolCallPreview over nodeHost gives the applier\'s verdict for a link into .git or out of the root', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-preview-links-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-preview-outside-'));
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'config'), '[core]\n\tbare = false\n');
  fs.writeFileSync(path.join(outside, 'kept.txt'), 'harmless\n');
  fs.symlinkSync(path.join(dir, '.git', 'config'), path.join(dir, 'into-git.txt'));
  fs.symlinkSync(path.join(outside, 'kept.txt'), path.join(dir, 'out.txt'));
  const host = eb.nodeHost(dir, { git: false });
  const calls = (file) => [
    ['edit_file', { path: file, old_string: 'harmless', new_string: 'changed' }],
    ['str_replace_based_edit_tool', { command: 'str_replace', path: file, old_str: 'bare = false', new_str: 'bare = true' }],
  ];
  for (const file of ['into-git.txt', 'out.txt']) {
    for (const [name, args] of calls(file)) {
      const applied = eb.applyToolCallsSync([{ name, arguments: args }], host, { dryRun: true });
      const expected = applied.results[0];
      assert.equal(expected.errorKind, 'path-escape', `${name} ${file}: the applier's verdict`);
      for (const asyncHost of [false, true]) {
        const readHost = asyncHost ? { readFile: async (p) => host.readFile(p) } : host;
        const preview = new ToolCallPreview({ name, host: readHost });
        const json = JSON.stringify(args);
        const events = [];
        for (let i = 0; i < json.length; i += 7) {
          events.push(...preview.feed(json.slice(i, i + 7)));
          if (asyncHost) await new Promise((r) => setImmediate(r));
        }
        events.push(...preview.finish());
        const state = preview.preview();
        assert.equal(state.errorKind ?? state.kind, 'path-escape', `${name} ${file} (${asyncHost ? 'async' : 'sync'}): ${JSON.stringify(state)}`);
        assert.ok(!/create it|not found/i.test(JSON.stringify(state)), JSON.stringify(state));
        assert.ok(events.some((e) => e.type === 'block-unmatched' && e.errorKind === 'path-escape'), JSON.stringify(events));
      }
    }
  }
  assert.equal(fs.readFileSync(path.join(outside, 'kept.txt'), 'utf8'), 'harmless\n');
});
