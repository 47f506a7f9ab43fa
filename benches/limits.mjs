#!/usr/bin/env node
// Benchmark: the inputs that used to run for minutes, each
// at two sizes a factor of ten apart so the growth shows. Near-linear means
// the larger size costs about ten times the smaller, not a hundred.
//
//   node scripts/build.mjs && node benches/limits.mjs
//
// 1. tolerant matching: a search of N lines (indented differently from the
//    file, so the exact pass fails) in a 200,000-line file, through
//    applyEditsSync (matching: 'tolerant') and an edit_file tool call;
// 2. N sequential blocks on one N-line file (one applyEditsSync call);
// 3. write-back of a mixed-ending (CRLF/LF) file after one block replaces
//    N of its lines, next to the same edit in a uniform LF file;
// 4. a stale hashline anchor on a 5 MB line, reported N times;
// 5. renderEditsSummary of N results;
// 6. an apply-patch update of N sections streamed with the live preview on;
// 7. N identical old lines (indented differently from the file) against a
//    200,000-line file holding them: live preview, a tolerant edit_file
//    call, and an apply-patch hunk (found by its whitespace pass);
// 8. N write_file calls in one applyToolCallsSync, then toolResultMessages;
// 9. an EditSession: 200 str_replace calls on a 2 MB file, with and without one;
// 10. one edit_file call with N batched edits to one N-line file;
// 11. the same N edits streamed as JSON arguments through ToolCallPreview,
//     in 4 KiB and in 64-byte chunks.
//
// The peer column is the same work on the release before these changes
// (main at d5e1c4d), measured by the person who reported it: there is no
// outside package doing the same, so the "before" figure is the peer.
import { performance } from 'node:perf_hooks';
import { EditStream, ToolCallPreview, applyEditsSync, applyToolCallsSync, applyHashlineEditSync, parseEdits, renderEditsSummary, toolResultMessages, EditSession } from '../pkg/node/index.mjs';

const memoryHost = (files) => ({
  files: new Map(Object.entries(files)),
  readFile(p) { return this.files.has(p) ? this.files.get(p) : null; },
  writeFile(p, c) { this.files.set(p, c); },
  deleteFile(p) { this.files.delete(p); },
});

const time = (fn) => {
  const t = performance.now();
  const out = fn();
  return [performance.now() - t, out];
};
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
const rows = [];
const row = (name, size, took, check, before) => {
  rows.push({ name, size, took, check, before });
  console.log(`${name.padEnd(44)} ${String(size).padStart(9)}  ${ms(took).padStart(9)}  ${check ? 'ok ' : 'BAD'}  ${before ?? ''}`);
};
const block = (filePath, oldLines, newLines) => ({ format: 'search-replace', filePath, anchor: '', oldLines, newLines, trailingAnchor: '', rawBlock: '', lineNumber: 1 });

console.log(`${'case'.padEnd(44)} ${'size'.padStart(9)}  ${'ours'.padStart(9)}  ok   before (reported)`);

// 1. Tolerant matching.
{
  const fileLines = 200000;
  const file = Array.from({ length: fileLines }, (_, i) => `    let value_${i} = compute(${i});\n`).join('');
  for (const [n, before] of [[2000, '9 s'], [20000, '80 s']]) {
    const from = fileLines / 2;
    const old = Array.from({ length: n }, (_, k) => `  let value_${from + k} = compute(${from + k});`).join('\n');
    const neu = Array.from({ length: n }, (_, k) => `  let value_${from + k} = compute(${from + k}) + 1;`).join('\n');
    let host = memoryHost({ 'src/big.rs': file });
    const [t1, r1] = time(() => applyEditsSync([block('src/big.rs', old, neu)], host, { matching: 'tolerant', stage: false }));
    row('tolerant search, applyEdits (200,000 lines)', n, t1, r1.results[0].status === 'applied' && host.files.get('src/big.rs').includes(`    let value_${from} = compute(${from}) + 1;\n`), before);
    host = memoryHost({ 'src/big.rs': file });
    const call = { name: 'edit_file', arguments: { path: 'src/big.rs', old_string: old, new_string: neu } };
    const [t2, r2] = time(() => applyToolCallsSync([call], host));
    row('tolerant search, edit_file (200,000 lines)', n, t2, r2.ok, before);
  }
}

// 2. Sequential blocks on one file.
for (const [n, before] of [[100000, '12 s'], [1000000, '> 90 s']]) {
  const file = Array.from({ length: n }, (_, i) => `line ${i}\n`).join('');
  const blocks = Array.from({ length: n }, (_, i) => block('f.txt', `line ${i}`, `LINE ${i}`));
  const host = memoryHost({ 'f.txt': file });
  const [t, r] = time(() => applyEditsSync(blocks, host, { stage: false }));
  row('sequential blocks on one file', n, t, r.results.length === n && r.results[n - 1].status === 'applied' && host.files.get('f.txt').startsWith('LINE 0\nLINE 1\n'), before);
}

// 3. Write-back of a mixed-ending file (200,000 lines), N lines replaced.
for (const [n, before] of [[6000, ''], [60000, '40 s (uniform: 0.16 s)']]) {
  const total = 200000;
  const lines = Array.from({ length: total }, (_, i) => `l${i}${i % 3 === 0 ? '\r\n' : '\n'}`);
  const mixed = lines.join('');
  const uniform = Array.from({ length: total }, (_, i) => `l${i}\n`).join('');
  const newLines = Array.from({ length: n }, (_, k) => `n${70000 + k}`);
  const old = Array.from({ length: n }, (_, k) => `l${70000 + k}`).join('\n');
  let host = memoryHost({ 'm.txt': mixed });
  const [t1, r1] = time(() => applyEditsSync([block('m.txt', old, newLines.join('\n'))], host, { stage: false }));
  // Every kept line keeps its own ending; new lines take the majority's (LF).
  const expected = lines.slice(0, 70000).join('') + newLines.map((l) => `${l}\n`).join('') + lines.slice(70000 + n).join('');
  row('mixed-ending write-back (200,000 lines)', n, t1, r1.results[0].status === 'applied' && host.files.get('m.txt') === expected, before);
  host = memoryHost({ 'u.txt': uniform });
  const [t2, r2] = time(() => applyEditsSync([block('u.txt', old, newLines.join('\n'))], host, { stage: false }));
  row('  the same edit, uniform LF file', n, t2, r2.results[0].status === 'applied');
}

// 4. A stale hashline anchor on a 5 MB line, reported N times.
{
  const big = 'x'.repeat(5 * 1024 * 1024);
  const content = `first\n${big}\nlast\n`;
  for (const [n, before] of [[100, ''], [1000, '6 s']]) {
    const host = memoryHost({ 'data.txt': content });
    let longest = 0;
    const [t] = time(() => {
      for (let i = 0; i < n; i++) {
        const r = applyHashlineEditSync({ path: 'data.txt', edits: [{ target: '2#ZZZ', new_content: ['y'] }] }, host);
        longest = Math.max(longest, r.message.length);
      }
    });
    row('stale hashline anchor on a 5 MB line', n, t, longest < 4000, before);
  }
}

// 5. renderEditsSummary of N results.
for (const [n, before] of [[100000, ''], [1000000, '24 s, 1.6 GB']]) {
  const results = Array.from({ length: n }, (_, i) => ({
    blockIndex: i, filePath: `src/f${i}.rs`, status: i % 2 ? 'failed' : 'applied',
    errorKind: i % 2 ? 'anchor-not-found' : undefined, reason: i % 2 ? 'Leading anchor not found.' : undefined,
    estimatedLine: 3, anchorPreview: '', oldPreview: '', newPreview: '',
  }));
  const [t, html] = time(() => renderEditsSummary(results));
  row('renderEditsSummary', n, t, html.includes(`${n / 2 - 1000} more`), before);
}

// 6. An apply-patch update of N sections, streamed with the live preview on.
function patchSectionsWithPreview() {
  for (const [n, before] of [[10000, '2.2 s'], [100000, '> 90 s']]) {
    const file = Array.from({ length: 3 * n }, (_, i) => `line ${i}\n`).join('');
    let body = '';
    for (let k = 0; k < n; k++) body += `@@\n line ${3 * k}\n-line ${3 * k + 1}\n+LINE ${3 * k + 1}\n`;
    const reply = `*** Begin Patch\n*** Update File: f.txt\n${body}*** End Patch\n`;
    const [t, preview] = time(() => {
      const stream = new EditStream({ preview: { files: { 'f.txt': file } } });
      for (let i = 0; i < reply.length; i += 4096) stream.feed(reply.slice(i, i + 4096));
      stream.finish();
      return stream.preview();
    });
    row('patch sections, live preview', n, t, preview.state === 'located' && preview.section === n, before);
  }
}

// 7. N identical old lines, indented differently, against a 200,000-line file.
function identicalOldLines() {
  for (const [n, before] of [[2000, ''], [20000, 'preview 72 s, edit_file 86 s, patch 53 s']]) {
    const from = 100000;
    const file = Array.from({ length: 200000 }, (_, i) => (i >= from && i < from + n ? '    same();\n' : `    v_${i}();\n`)).join('');
    const old = Array.from({ length: n }, () => '  same();').join('\n');
    const neu = Array.from({ length: n }, () => '  other();').join('\n');
    // Every old line replaced, once (edit_file re-indents the new lines; a patch writes them as given).
    const changed = (text) => text.startsWith('    v_0();\n') && text.endsWith('    v_199999();\n') && text.split('other();').length === n + 1 && !text.includes('same();');
    const reply = `f.txt\n<<<<<<< SEARCH\n${old}\n=======\n${neu}\n>>>>>>> REPLACE\n`;
    const [t1, preview] = time(() => {
      const stream = new EditStream({ preview: { files: { 'f.txt': file } } });
      for (let i = 0; i < reply.length; i += 4096) stream.feed(reply.slice(i, i + 4096));
      stream.finish();
      return stream.preview();
    });
    // Exact matching (the preview's) finds no such line: no-match, from the first line.
    row('identical old lines, live preview', n, t1, preview.state === 'no-match' && preview.since === 1, before);
    let host = memoryHost({ 'f.txt': file });
    const call = { name: 'edit_file', arguments: { path: 'f.txt', old_string: old, new_string: neu } };
    const [t2, r2] = time(() => applyToolCallsSync([call], host));
    row('identical old lines, edit_file (tolerant)', n, t2, r2.ok && changed(host.files.get('f.txt')));
    const minus = old.split('\n').map((l) => `-${l}`).join('\n');
    const plus = neu.split('\n').map((l) => `+${l}`).join('\n');
    const blocks = parseEdits(`*** Begin Patch\n*** Update File: f.txt\n@@\n${minus}\n${plus}\n*** End Patch\n`);
    host = memoryHost({ 'f.txt': file });
    const [t3, r3] = time(() => applyEditsSync(blocks, host, { stage: false }));
    row('identical old lines, apply-patch hunk', n, t3, r3.results[0].status === 'applied' && r3.results[0].matchedBy === 'whitespace' && changed(host.files.get('f.txt')));
  }
}

// 8. N write_file calls in one applyToolCallsSync, then their answers.
function manyToolCalls() {
  for (const [n, before] of [[10000, ''], [100000, 'write 56 s, toolResultMessages 49 s']]) {
    const calls = Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, name: 'write_file', arguments: { path: `out/f${i}.txt`, content: `${i}\n` } }));
    const host = memoryHost({});
    const [t1, r] = time(() => applyToolCallsSync(calls, host));
    row('write_file calls', n, t1, r.ok && host.files.size === n && host.files.get(`out/f${n - 1}.txt`) === `${n - 1}\n`, before);
    const [t2, messages] = time(() => toolResultMessages(r, { api: 'openai' }));
    row('  toolResultMessages of those', n, t2, messages.length === n && messages[n - 1].tool_call_id === `call_${n - 1}`);
  }
}

patchSectionsWithPreview();
identicalOldLines();
manyToolCalls();

const bad = rows.filter((r) => !r.check);
if (bad.length) {
  console.error(`${bad.length} case(s) gave a wrong result`);
  process.exitCode = 1;
}

// 9. An edit session: str_replace on a 2 MB file, 200 calls in a row, with
// an EditSession (undo_edit's history, 20 texts deep after 20 calls) and
// without one. A call is given only the texts its undo_edit calls go back
// to and hands back only the text before its own change, so both columns
// should be about the same.
function editSessionCase() {
  const lines = Array.from({ length: 40000 }, (_, i) => `line ${String(i).padStart(6, '0')} of a two megabyte file, kept as it is\n`);
  const text = lines.join('');
  const calls = 200;
  const run = (session) => {
    const host = memoryHost({ 'big.txt': text });
    const started = performance.now();
    let slowest = 0;
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      const r = applyToolCallsSync([{ type: 'tool_use', id: `t${i}`, name: 'str_replace_based_edit_tool', input: {
        command: 'str_replace', path: 'big.txt', old_str: `line ${String(i).padStart(6, '0')} of`, new_str: `line ${String(i).padStart(6, '0')} in`,
      } }], host, session ? { session } : {});
      slowest = Math.max(slowest, performance.now() - t);
      if (!r.ok) return [performance.now() - started, slowest, false];
    }
    const undo = applyToolCallsSync([{ type: 'tool_use', id: 'u', name: 'str_replace_based_edit_tool', input: { command: 'undo_edit', path: 'big.txt' } }], host, session ? { session } : {});
    const undone = session ? undo.ok && host.files.get('big.txt').includes(`line ${String(calls - 1).padStart(6, '0')} of`) : !undo.ok;
    return [performance.now() - started, slowest, undone];
  };
  const [without, slowestWithout, okWithout] = run(null);
  row(`str_replace, 2 MB file, no session (slowest ${ms(slowestWithout)})`, calls, without, okWithout, '');
  const [withSession, slowestWith, okWith] = run(new EditSession());
  row(`str_replace, 2 MB file, EditSession (slowest ${ms(slowestWith)})`, calls, withSession, okWith, 'over 60 s; 0.46–0.6 s a call; 1.0–1.25 GB');
  if (!okWithout || !okWith) process.exitCode = 1;
}
editSessionCase();

// N lines and N edits of one file, each changing part of its own line.
const batchedEdits = (n) => ({
  file: Array.from({ length: n }, (_, i) => `    let value_${i} = compute(${i});\n`).join(''),
  edits: Array.from({ length: n }, (_, i) => ({ path: 'f.rs', old_string: `value_${i} = compute(`, new_string: `value_${i} = compute2(` })),
  changed: (text) => text.startsWith('    let value_0 = compute2(0);\n') && text.split('compute2(').length === n + 1,
});

// 10. One edit_file call with N batched edits to one N-line file.
function batchedEditFile() {
  for (const [n, before] of [[10000, '2 s'], [100000, 'over 90 s']]) {
    const { file, edits, changed } = batchedEdits(n);
    const host = memoryHost({ 'f.rs': file });
    const [t, r] = time(() => applyToolCallsSync([{ name: 'edit_file', arguments: { edits } }], host));
    row('batched edits, one edit_file call', n, t, r.ok && changed(host.files.get('f.rs')), before);
    if (!r.ok) process.exitCode = 1;
  }
}
batchedEditFile();

// 11. The same edits streamed as JSON arguments (4 KiB chunks, then 64-byte
// chunks, about one edit each) with the live tool-call preview.
function batchedEditsPreview() {
  for (const [n, chunk, before] of [[2500, 4096, ''], [25000, 4096, '26 s (12,500 edits: 6.3 s)'], [2500, 64, ''], [25000, 64, '']]) {
    const { file, edits, changed } = batchedEdits(n);
    const args = JSON.stringify({ edits });
    const [t, content] = time(() => {
      const preview = new ToolCallPreview({ name: 'edit_file', files: { 'f.rs': file } });
      for (let i = 0; i < args.length; i += chunk) preview.feed(args.slice(i, i + chunk));
      preview.finish();
      const text = preview.previewContent();
      preview.free();
      return text;
    });
    row(`batched edits, ToolCallPreview (${chunk}-byte chunks)`, n, t, typeof content === 'string' && changed(content), before);
    if (!(typeof content === 'string' && changed(content))) process.exitCode = 1;
  }
}
batchedEditsPreview();
