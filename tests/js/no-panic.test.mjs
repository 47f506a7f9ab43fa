// Hostile input through every entry point of the built package: malformed
// blocks, odd Unicode (lone surrogates, combining marks, RTL), huge lines,
// HTML, hostile paths. A Rust panic would surface as a WebAssembly
// RuntimeError and poison the instance; a clear JS error is fine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as eb from '../../pkg/node/index.mjs';

// A small seeded generator, so a failure can be replayed.
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const PIECES = [
  '««« EDIT', '═══════ REPL', '»»» EDIT END', '»»»', '───────', '═══════', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE',
  '```', '```python', 'src/a.py', '../../etc/passwd', '/abs/path', 'C:\\win', 'a\u0000b', '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>', '\ud800', '\udfff', '👍🏽', '🇫🇷', 'e\u0301', '\u202e', '\r', '\r\n', '\n', '\n\n', '    ', '\t',
  'x'.repeat(5000), '1#abc|', '12#zzz', 'def f():', '}', '**src/b.ts**:', '`c.rs`', '#### heading',
];

function randomText(next, parts = 40) {
  let out = '';
  for (let i = 0; i < parts; i++) {
    out += next() < 0.7 ? PIECES[Math.floor(next() * PIECES.length)] : String.fromCharCode(Math.floor(next() * 0xffff));
    if (next() < 0.4) out += '\n';
  }
  return out;
}

const memoryHost = (files) => ({
  readFile: (p) => (files.has(p) ? files.get(p) : null),
  writeFile: (p, c) => files.set(p, c),
  deleteFile: (p) => files.delete(p),
});

// Calls `fn`; a JS error with a message is an acceptable refusal, a wasm trap is not.
function survives(what, fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what} trapped: ${e.message}`);
    assert.ok(e instanceof Error && e.message.length > 0, `${what} threw something without a message: ${e}`);
  }
}

test('no input panics any entry point, and the module keeps working', () => {
  const next = rng(20261122);
  for (let round = 0; round < 250; round++) {
    const text = randomText(next);
    const other = randomText(next, 10);
    survives('parseEdits', () => eb.parseEdits(text));
    survives('detectFormat', () => eb.detectFormat(text));
    survives('EditStream', () => {
      const stream = new eb.EditStream();
      for (let i = 0; i < text.length; ) {
        const n = 1 + Math.floor(next() * 17);
        stream.feed(text.slice(i, i + n));
        stream.pending();
        i += n;
      }
      stream.finish();
    });
    const files = new Map([['src/a.py', other], ['src/b.ts', text], ['c.rs', '\ud800\n' + other]]);
    survives('applyEditsSync', () => eb.applyEditsSync(text, memoryHost(files), { matching: next() < 0.5 ? 'exact' : 'tolerant' }));
    for (const block of eb.parseEdits(text)) {
      survives('applyToContent', () => eb.applyToContent(block, other));
      survives('renderEditBlock', () => eb.renderEditBlock(block, []));
    }
    survives('applyToolCallsSync', () => eb.applyToolCallsSync([
      { name: 'edit_file', arguments: { path: 'src/a.py', old_string: other.slice(0, 20), new_string: text.slice(0, 30) } },
      { name: 'edit_file', arguments: text.slice(0, 50) },
      { name: 'modify_file', arguments: { path: 'c.rs', changes: [{ start: [other.slice(0, 5)], content: [text.slice(0, 9)] }] } },
    ], memoryHost(files)));
    survives('applyHashlineEditSync', () => eb.applyHashlineEditSync(
      { path: 'src/a.py', edits: [{ target: text.slice(0, 8), new_content: [other.slice(0, 10)] }, { after: '1#' + text.slice(0, 3), inserted_lines: [text] }] },
      memoryHost(files), { allowReplaceText: true }));
    survives('formatHashlines', () => eb.formatHashlines(text, { startLine: Math.floor(next() * 5), endLine: Math.floor(next() * 50) }));
    survives('lineId', () => eb.lineId(text));
    survives('diffBlock', () => eb.diffBlock(text, other + text.slice(3)));
    survives('renderInProgressEditBlock', () => eb.renderInProgressEditBlock(text.slice(0, 40), text.split('\n')));
    survives('renderEditsSummary', () => eb.renderEditsSummary(eb.applyEditsSync(text, memoryHost(files), { dryRun: true })));
    survives('detectShellSuggestions', () => eb.detectShellSuggestions(text));
  }
  // A poisoned instance would fail here.
  assert.equal(eb.parseEdits('a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n').length, 1);
  assert.equal(eb.diffBlock('a', 'b').length, 2);
});
