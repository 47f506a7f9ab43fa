// Line ends and a leading byte-order mark through the built package: the
// wrapper hands the core the reply with every CR before a line end dropped
// (`\r\n`, `\r\r\n`) and leading U+FEFF removed, the same normalisation the
// core applies, so the core's offsets slice the right text
// (node --test tests/js/parser-crlf.test.mjs after node scripts/build.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEdits, EditStream } from '../../pkg/node/index.mjs';

const EDIT = 'src/app.py\n««« EDIT\ndef f():\n    return 1\n═══════ REPL\ndef f():\n    return 2\n»»» EDIT END\n';
const expected = {
  format: 'edit-repl',
  filePath: 'src/app.py',
  anchor: 'def f():',
  oldLines: '    return 1',
  newLines: '    return 2',
  trailingAnchor: '',
  rawBlock: EDIT.trimEnd(),
};

const cases = {
  'a prose line ending in \\r\\r\\n': `Some notes\r\r\n${EDIT}`,
  'every line ending in \\r\\r\\n': `Some notes\r\r\n${EDIT.replaceAll('\n', '\r\r\n')}`,
  'CRLF, then CRs at the very end': `Some notes\r\n${EDIT.trimEnd().replaceAll('\n', '\r\n')}\r\r`,
  'a leading byte-order mark': `\ufeff${EDIT}`,
  'a byte-order mark before a \\r\\r\\n line': `\ufeffnotes\r\r\n${EDIT}`,
};

function streamBlocks(chunks) {
  const s = new EditStream();
  const events = [];
  for (const c of chunks) events.push(...s.feed(c));
  events.push(...s.finish());
  return events.filter((e) => e.type === 'block-complete').map((e) => e.block);
}

for (const [name, text] of Object.entries(cases)) {
  test(`parseEdits: ${name}`, () => {
    const blocks = parseEdits(text);
    assert.equal(blocks.length, 1);
    const { lineNumber, ...rest } = blocks[0];
    assert.deepEqual(rest, expected);
  });

  test(`EditStream in any chunking gives parseEdits' blocks: ${name}`, () => {
    const whole = parseEdits(text);
    assert.deepEqual(streamBlocks([text]), whole);
    assert.deepEqual(streamBlocks(Array.from(text)), whole, 'one character at a time');
    for (let i = 0; i <= text.length; i++) {
      assert.deepEqual(streamBlocks([text.slice(0, i), text.slice(i)]), whole, `split at ${i}`);
    }
    for (let i = 0; i + 1 < text.length; i++) {
      assert.deepEqual(streamBlocks([text.slice(0, i), text.slice(i, i + 1), text.slice(i + 1)]), whole, `one-unit chunk at ${i}`);
    }
  });
}

test('a CR inside a line is text, the same in parseEdits and EditStream', () => {
  const text = 'src/app.py\n««« EDIT\na\r b\n═══════ REPL\na\r c\r\r\n»»» EDIT END\r\n';
  const [block] = parseEdits(text);
  assert.equal(block.oldLines, 'a\r b');
  assert.equal(block.newLines, 'a\r c');
  assert.deepEqual(streamBlocks(Array.from(text)), [block]);
});
