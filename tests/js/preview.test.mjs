// The live preview through the package: EditStream({ preview }), the events
// block-located / block-unmatched, preview(), previewContent(), pendingDelta(),
// renderInProgressEditBlock(stream, { incremental }), and the CLI's
// --stop-on-unmatched on a reply piped in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EditStream, validateEdit, renderInProgressEditBlock } from '../../pkg/node/index.mjs';
import { fixtureCases, readText, root, withoutPathAlias } from '../fixture_support/preview.mjs';


// Feeds `reply` in chunks of `size`; returns the preview events and each block's final state.
function run(files, reply, size, host) {
  const stream = new EditStream({ preview: host ? { host } : { files } });
  const events = [];
  const states = [];
  const take = (evs) => {
    for (const e of evs) {
      if (e.type === 'block-located' || e.type === 'block-unmatched') events.push(e);
      if (e.type === 'block-complete' || e.type === 'block-discarded') states.push(e.preview);
    }
  };
  for (let i = 0; i < reply.length; i += size) take(stream.feed(reply.slice(i, i + size)));
  take(stream.finish());
  return { events, states };
}

const strip = ({ lineNumber, ...rest }) => withoutPathAlias(rest);

test('every preview fixture gives the core\'s events and final states through the package, in any chunking', () => {
  for (const { name, files, expected, reply } of fixtureCases('preview', 8, (d) => ({ reply: readText(d, 'reply.md') }))) {
    for (const size of [1, 3, 4, 17, reply.length]) {
      const { events, states } = run(files, reply, size);
      assert.deepEqual(events.map(strip), expected.events, `${name}: events, chunks of ${size}`);
      assert.deepEqual(states, expected.states, `${name}: states, chunks of ${size}`);
    }
  }
});

const FILE = 'def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n';

test('block-unmatched comes in the middle of the block, with the reason validateEdit gives, and names the reply line', () => {
  const reply = 'Intro.\n\nsrc/shapes.py\n<<<<<<< SEARCH\ndef perimeter(w, h):\n    return 3 * (w + h)\n    more\n    lines\n=======\nnew\n>>>>>>> REPLACE\n';
  const stream = new EditStream({ preview: { files: { 'src/shapes.py': FILE } } });
  let unmatchedAt = -1;
  let event = null;
  const cut = reply.indexOf('    more');
  for (let i = 0; i < reply.length; i++) {
    for (const e of stream.feed(reply[i])) if (e.type === 'block-unmatched' && event === null) { event = e; unmatchedAt = i; }
  }
  stream.finish();
  assert.ok(event, 'block-unmatched was emitted');
  assert.ok(unmatchedAt < cut, 'as soon as the mismatching line ends, before the rest of the block');
  assert.equal(event.path, 'src/shapes.py');
  assert.equal(event.filePath, 'src/shapes.py', 'the deprecated alias still reads');
  assert.equal(event.lineNumber, 3);
  assert.equal(event.since, 2);
  assert.equal(event.errorKind, 'old-mismatch');
  const v = validateEdit({ format: 'search-replace', filePath: 'src/shapes.py', anchor: '', oldLines: 'def perimeter(w, h):\n    return 3 * (w + h)', newLines: 'x', trailingAnchor: '', rawBlock: '', lineNumber: 1 }, FILE);
  assert.equal(event.reason, v.reason);
});

test('states while streaming: waiting, searching, located; previewContent is the file with the new lines so far', () => {
  const stream = new EditStream({ preview: { files: { 'a.txt': 'x\ny\nx\ny\nz\n' } } });
  stream.feed('a.txt\n<<<<<<< SEARCH\n');
  assert.equal(stream.preview().state, 'waiting');
  stream.feed('x\n');
  assert.deepEqual(stream.preview(), { path: 'a.txt', filePath: 'a.txt', lineNumber: 1, state: 'searching', count: 2, lines: [1, 3] });
  stream.feed('y\n');
  assert.equal(stream.preview().count, 2);
  const located = stream.feed('z\n').filter((e) => e.type === 'block-located');
  assert.deepEqual(located, [{ type: 'block-located', path: 'a.txt', filePath: 'a.txt', line: 3, lineNumber: 1 }]);
  assert.equal(stream.previewContent(), 'x\ny\nx\ny\nz\n');
  stream.feed('=======\nX\n');
  assert.equal(stream.previewContent(), 'x\ny\nX\n');
  stream.feed('Y\n');
  assert.equal(stream.previewContent(), 'x\ny\nX\nY\n');
  stream.finish();
  assert.equal(stream.preview().state, 'located');
  assert.equal(stream.previewContent(), null, 'no open block after finish');
});

test('an async host: the file arrives later and the events come with the next feed', async () => {
  const host = { readFile: async () => FILE };
  const stream = new EditStream({ preview: { host } });
  const first = stream.feed('src/shapes.py\n<<<<<<< SEARCH\nnope\n');
  assert.equal(first.filter((e) => e.type === 'block-unmatched').length, 0);
  await new Promise((r) => setTimeout(r, 0));
  const later = stream.feed('=');
  assert.deepEqual(later.map((e) => e.type), ['block-unmatched']);
  stream.finish();
});

test('a path that leaves the root is never read and is unmatched at its start', () => {
  const read = [];
  const host = { readFile: (p) => { read.push(p); return 'x\n'; } };
  const stream = new EditStream({ preview: { host } });
  const events = stream.feed('../../etc/passwd\n<<<<<<< SEARCH\nroot\n');
  const u = events.find((e) => e.type === 'block-unmatched');
  assert.equal(u.errorKind, 'path-escape');
  assert.deepEqual(read, []);
  stream.finish();
});

test('pendingDelta reports only what is new; pending() still gives the whole block', () => {
  const stream = new EditStream();
  assert.equal(stream.pendingDelta(), null);
  stream.feed('a.txt\n<<<<<<< SEARCH\none\ntw');
  assert.deepEqual(stream.pendingDelta(), { filePath: 'a.txt', lineNumber: 1, format: 'search-replace', reset: true, added: [{ section: 'search', lines: ['one'] }], partialLine: 'tw' });
  stream.feed('o\n=======\nuno\n');
  assert.deepEqual(stream.pendingDelta(), { filePath: 'a.txt', lineNumber: 1, format: 'search-replace', reset: false, added: [{ section: 'search', lines: ['two'] }, { section: 'replace', lines: ['uno'] }], partialLine: '' });
  assert.deepEqual(stream.pendingDelta().added, []);
  assert.deepEqual(stream.pending().sections.map((s) => s.lines), [['one', 'two'], ['uno']]);
  stream.feed('>>>>>>> REPLACE\n');
  assert.equal(stream.pendingDelta(), null);
  stream.finish();
});

test('pendingDelta adds up to pending() whenever its first call comes (it tracks only once asked)', () => {
  const reply = [
    'Intro text.\n', 'a.txt\n', '<<<<<<< SEARCH\n', 'one\n', 'two\n', '=======\n', 'uno\n', '>>>>>>> REPLACE\n',
    'Between.\n', '```diff\n', '--- a/b.txt\n', '+++ b/b.txt\n', '@@ -1,2 +1,2 @@\n', ' keep\n', '-old\n', '+new\n', '```\n',
    '*** Begin Patch\n', '*** Update File: c.txt\n', '@@ def f():\n', ' x = 1\n', '-y = 2\n', '+y = 3\n', '*** End Patch\n',
  ].join('');
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let round = 0; round < 40; round++) {
    const chunks = [];
    for (let i = 0; i < reply.length;) {
      const n = 1 + Math.floor(rand() * 12);
      chunks.push(reply.slice(i, i + n));
      i += n;
    }
    const firstCall = Math.floor(rand() * chunks.length);
    const stream = new EditStream();
    let rebuilt = null;
    chunks.forEach((chunk, i) => {
      stream.feed(chunk);
      if (i < firstCall) return;
      const delta = stream.pendingDelta();
      const whole = stream.pending();
      if (delta === null) {
        assert.equal(whole, null, `round ${round}, chunk ${i}: a null delta means no open block`);
        rebuilt = null;
        return;
      }
      if (delta.reset || rebuilt === null) {
        assert.ok(delta.reset, `round ${round}, chunk ${i}: the first delta of a block is a reset`);
        rebuilt = [];
      }
      for (const { section, lines } of delta.added) {
        const last = rebuilt[rebuilt.length - 1];
        if (last !== undefined && last.section === section && lines.length > 0) last.lines.push(...lines);
        else if (last === undefined || last.section !== section || lines.length === 0) rebuilt.push({ section, lines: [...lines] });
      }
      assert.deepEqual(rebuilt.filter((s) => s.lines.length > 0), whole.sections.filter((s) => s.lines.length > 0), `round ${round}, chunk ${i} (first call at ${firstCall})`);
      assert.equal(delta.filePath, whole.filePath);
      assert.equal(delta.partialLine, whole.partialLine);
    });
    stream.finish();
  }
});

test('renderInProgressEditBlock(stream) draws the block in place; the incremental form adds up to it', () => {
  const file = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const reply = 'f.txt\n<<<<<<< SEARCH\nline 10\nline 11\n=======\nline 10\nline eleven\nline 11.5\n>>>>>>> REPLACE\n';
  const stream = new EditStream({ preview: { files: { 'f.txt': file } } });
  const deltas = [];
  let full = '';
  for (let i = 0; i < reply.length - 18; i += 3) {
    stream.feed(reply.slice(i, i + 3));
    const d = renderInProgressEditBlock(stream, { incremental: true });
    if (d !== null) deltas.push(d);
    full = renderInProgressEditBlock(stream);
  }
  assert.match(full, /data-preview-state="located"/);
  assert.match(full, /<div class="eb-line eb-line-context" data-old-line="7" data-new-line="7">/, 'context above with file line numbers');
  assert.match(full, /eb-line-removed" data-row="s1" data-old-line="11"/);
  assert.match(full, /data-new-line="11"><span class="eb-num eb-num-old"><\/span><span class="eb-num eb-num-new">11<\/span><span class="eb-sign">\+<\/span><span class="eb-sr">added: <\/span><span class="eb-text">line <span class="eb-change">eleven<\/span>/);
  assert.match(full, /eb-preview-below"><div class="eb-line eb-line-context" data-old-line="12" data-new-line="13">/);
  // Later deltas carry only the rows written since: none of them holds the old lines again.
  const after = deltas.slice(deltas.findIndex((d) => d.reset !== undefined && d.reset.includes('eb-line-removed')) + 1);
  assert.ok(after.length > 0);
  for (const d of after) {
    assert.equal(d.reset, undefined);
    assert.ok(!(d.append ?? '').includes('eb-line-removed'), JSON.stringify(d));
  }
  assert.throws(() => renderInProgressEditBlock(stream, { incremental: 'yes' }), /incremental must be a boolean/);
  stream.finish();
});

test('EditStream options.preview is checked', () => {
  assert.throws(() => new EditStream({ preview: 'x' }), /options\.preview must be an object/);
  assert.throws(() => new EditStream({ preview: {} }), /needs files .* or host/);
  assert.throws(() => new EditStream({ preview: { host: {} } }), /readFile/);
});

test('CLI --stop-on-unmatched stops reading a piped reply at the first block that cannot apply, writes nothing, exit 3', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-preview-'));
  fs.writeFileSync(path.join(dir, 'a.py'), FILE);
  const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');
  const child = spawn(process.execPath, [cli, 'apply', '--root', dir, '--no-stage', '--stop-on-unmatched', '--no-color', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = new Promise((resolve) => child.on('close', resolve));
  child.stdin.on('error', () => {}); // the CLI may close the pipe while we write
  child.stdin.write('a.py\n<<<<<<< SEARCH\ndef area(w, h):\n    return w * h\n=======\ndef area(w, h):\n    return w * h * 1\n>>>>>>> REPLACE\n\n');
  child.stdin.write('a.py\n<<<<<<< SEARCH\ndef volume(w, h, d):\n');
  // The rest of the reply never needs to come: the CLI stops on its own.
  const status = await code;
  child.stdin.destroy();
  assert.equal(status, 3, stderr);
  assert.match(stderr, /stopped at the block for a\.py \(reply line 10\)/);
  assert.match(stderr, /has no line `def volume\(w, h, d\):`/);
  assert.equal(fs.readFileSync(path.join(dir, 'a.py'), 'utf8'), FILE, 'nothing written');
});

test('EditPreview: an edit fed by hand (e.g. str_replace arguments as they stream)', async () => {
  const { EditPreview } = await import('../../pkg/node/index.mjs');
  const p = new EditPreview('src/shapes.py', FILE);
  assert.deepEqual(p.pushOld(['def perimeter(w, h):']), [{ type: 'block-located', path: 'src/shapes.py', filePath: 'src/shapes.py', line: 5 }]);
  p.pushOld('    return 2 * (w + h)');
  p.pushNew(['def perimeter(w, h):', '    return 2 * w + 2 * h']);
  assert.deepEqual(p.state(), { path: 'src/shapes.py', filePath: 'src/shapes.py', state: 'located', line: 5 });
  assert.equal(p.content(), FILE.replace('2 * (w + h)', '2 * w + 2 * h'));
  assert.match(p.render(), /data-preview-state="located"/);
  p.free();
  assert.throws(() => p.state(), /after free/);
  const q = new EditPreview('src/shapes.py', FILE);
  const [u] = q.pushOld(['def volume():']);
  assert.equal(u.type, 'block-unmatched');
  assert.throws(() => q.pushOld(7), /complete lines/);
  q.free();
});

test('CLI --stop-on-unmatched refuses --matching tolerant (the preview matches exactly)', async () => {
  const { spawnSync } = await import('node:child_process');
  const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');
  const out = spawnSync(process.execPath, [cli, 'apply', '--stop-on-unmatched', '--matching', 'tolerant', '-'], { encoding: 'utf8', input: '' });
  assert.equal(out.status, 2);
  assert.match(out.stderr, /cannot be combined with --matching tolerant/);
});

test('hostile replies and files through the preview: no trap, every render escapes', async () => {
  const eb = await import('../../pkg/node/index.mjs');
  let s = 7;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const pieces = ['src/a.py', '../x', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '««« EDIT', '═══════ REPL', '»»» EDIT END', '───────', '═══════', '»»»',
    '<script>alert(1)</script>', '\ud800', '👍🏽', 'e\u0301', '\u202e', '\r', '\0', 'x = 1', 'y = 2', '', '    ', '\t'];
  const file = 'x = 1\ny = 2\n<script>alert(1)</script>\nx = 1\n\0\n';
  for (let round = 0; round < 60; round++) {
    let reply = '';
    for (let i = 0; i < 50; i++) reply += pieces[Math.floor(next() * pieces.length)] + (next() < 0.6 ? '\n' : '');
    const stream = new eb.EditStream({ preview: { files: { 'src/a.py': round % 3 ? file : 'x = 1\ny = 2\n' } } });
    for (let i = 0; i < reply.length; i += 1 + Math.floor(next() * 6)) {
      stream.feed(reply.slice(i, i + 1 + Math.floor(next() * 6)));
      const d = eb.renderInProgressEditBlock(stream, { incremental: true });
      const html = eb.renderInProgressEditBlock(stream);
      assert.ok(!html.includes('<script>'), html);
      if (d !== null) assert.ok(!JSON.stringify(d).includes('<script>'));
      stream.preview();
      stream.previewContent();
    }
    stream.finish();
  }
  assert.equal(eb.parseEdits('a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n').length, 1, 'the module still works');
});

test('without options.preview the incremental render still draws the block (not located), from the first call on', () => {
  const stream = new EditStream();
  stream.feed('Intro.\n\nsrc/a.py\n<<<<<<< SEARCH\nold one\nold two\n=======\nnew ');
  const first = renderInProgressEditBlock(stream, { incremental: true });
  assert.match(first.reset, /data-preview-state="unlocated"/);
  assert.match(first.reset, /old two/);
  assert.match(first.reset, /new <span class="eb-cursor" aria-hidden="true">/);
  stream.feed('one\nnew two\n');
  const next = renderInProgressEditBlock(stream, { incremental: true });
  assert.equal(next.reset, undefined);
  assert.match(next.append, /eb-line-added/);
  assert.doesNotMatch(next.append, /old one/);
  assert.equal(stream.preview(), null);
  assert.equal(stream.previewContent(), null);
  const events = stream.feed('>>>>>>> REPLACE\n');
  assert.equal(events.find((e) => e.type === 'block-complete').preview, undefined);
  assert.equal(renderInProgressEditBlock(stream, { incremental: true }), null);
  stream.finish();
});

test('a block after an edit-repl block to the same file is located in the file as that block left it', () => {
  const file = 'fn a() {\n    x();\n}\nfn b() {\n    x();\n}\n';
  const reply = 'a.rs\n««« EDIT\nfn b() {\n    x();\n═══════ REPL\nfn b() {\n    v();\n»»» EDIT END\n\n' +
    'a.rs\n<<<<<<< SEARCH\nfn b() {\n    v();\n=======\nfn b() {\n    w();\n>>>>>>> REPLACE\n';
  for (const size of [1, 5, reply.length]) {
    const { events, states } = run({ 'a.rs': file }, reply, size);
    assert.deepEqual(events.map((e) => [e.type, e.line, e.lineNumber]), [['block-located', 4, 1], ['block-located', 4, 10]], `chunks of ${size}`);
    assert.deepEqual(states.map((s) => s.state), ['located', 'located'], `chunks of ${size}`);
  }
});

test('an async host under patch operations: files are read in order, and a late block-complete gets its final state', async () => {
  const file = 'one\ntwo\nthree\n';
  const reads = [];
  const host = { readFile: (p) => { reads.push(p); return new Promise((r) => setTimeout(() => r(file), 5)); } };
  const stream = new EditStream({ preview: { host } });
  const out = [];
  // Two updates of one file in one envelope: the second sees the first's change.
  out.push(...stream.feed('*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** Update File: a.txt\n@@\n-uno\n+eins\n*** End Patch\n'));
  const completes = out.filter((e) => e.type === 'block-complete');
  assert.equal(completes.length, 2);
  assert.equal(completes[0].preview, undefined, 'the file is still being read');
  for (let i = 0; i < 5 && completes.some((e) => e.preview === undefined); i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(reads, ['a.txt'], 'the second operation reads what the first left, not the file again');
  assert.deepEqual(completes.map((e) => e.preview.state), ['located', 'located']);
  const later = stream.feed('\n');
  assert.deepEqual(later.filter((e) => e.type === 'block-located').map((e) => [e.line, e.lineNumber]), [[1, 2], [1, 6]]);
  stream.finish();
  assert.equal(stream.preview().state, 'located');
});
