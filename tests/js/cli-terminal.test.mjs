// The CLI prints text from the reply and from the files (diff lines, reasons
// quoting the search text, nearest lines quoting the file, paths, suggested
// commands). None of it may reach the terminal as a control sequence: every
// control character but tab shows as its control picture, C1 controls and
// invisible format characters as <U+XXXX>. The payloads are harmless (an OSC
// 52 clipboard write of the word "harmless", an erase-line, a CR that would
// return to the start of the line, a C1 CSI, a bidi override).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');

const OSC52 = '\x1b]52;c;aGFybWxlc3M=\x07'; // sets the clipboard to "harmless"
const ERASE = '\x1b[2K'; // erases the line
const C1_CSI = '\u009b31m';
const RLO = '\u202e';

function project(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-cli-terminal-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const run = (args, input, extraEnv = {}) => {
  const env = { ...process.env, ...extraEnv };
  if (!('FORCE_COLOR' in extraEnv)) delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, env });
};

const files = {
  'notes.txt': `first line\nharmless${OSC52} clipboard line\n`,
  'screen.txt': `top\nsecond${ERASE}\rline with a CR\n`,
  'ok.txt': 'keep\nold value\n',
};
const reply = [
  'Two changes. Run `git rm old' + ERASE + '.txt` after.',
  '',
  'notes.txt',
  '<<<<<<< SEARCH',
  `harmless${OSC52} clipboard lime`,
  '=======',
  'replaced',
  '>>>>>>> REPLACE',
  '',
  'screen.txt',
  '<<<<<<< SEARCH',
  'second[2Kline with a CR',
  '=======',
  'x',
  '>>>>>>> REPLACE',
  '',
  'ok.txt',
  '<<<<<<< SEARCH',
  'old value',
  '=======',
  `new ${C1_CSI}value${RLO} with\rCR and ${OSC52}`,
  '>>>>>>> REPLACE',
  '',
].join('\n');

/** Every ESC in `text` opens one of the CLI's own colour codes (SGR). */
const onlyOwnEscapes = (text) => text.replace(/\x1b\[\d+m/g, '').indexOf('\x1b') === -1;

for (const colour of [false, true]) {
  test(`human output shows control characters as pictures (${colour ? 'with' : 'without'} colour)`, () => {
    const dir = project(files);
    const out = run(['apply', '--root', dir, '--no-stage', ...(colour ? ['--color'] : []), '-'], reply);
    assert.equal(out.status, 1, out.stderr);
    const text = out.stdout + out.stderr;
    assert.ok(onlyOwnEscapes(text), `a raw ESC reached the terminal:\n${JSON.stringify(text)}`);
    for (const raw of ['\x07', '\r', '\u009b', RLO]) assert.ok(!text.includes(raw), `raw ${JSON.stringify(raw)} in the output`);
    // The failed block's reason and nearest line quote the OSC 52 sequence visibly.
    assert.match(text, /harmless␛\]52;c;aGFybWxlc3M=␇ clipboard/);
    // The nearest line from the file shows the CR and the erase-line sequence.
    assert.match(text, /second␛\[2K␍line with a CR/);
    // The applied block's diff shows the C1 CSI, the bidi override and the CR.
    assert.match(text, /new (\x1b\[\d+m)*<U\+009B>(\x1b\[\d+m)*31mvalue<U\+202E> with␍CR and ␛\]52;c;aGFybWxlc3M=␇/);
    // The suggested command too.
    assert.match(text, /\$ git rm old␛\[2K\.txt/);
    // What was written is the model's text, unchanged: only the display is escaped.
    assert.equal(fs.readFileSync(path.join(dir, 'ok.txt'), 'utf8'), `keep\nnew ${C1_CSI}value${RLO} with\rCR and ${OSC52}\n`);
  });
}

test('--json stays exact JSON and carries no raw C1 or invisible characters', () => {
  const dir = project(files);
  const out = run(['apply', '--root', dir, '--no-stage', '--json', '--dry-run', '-'], reply);
  assert.equal(out.status, 1, out.stderr);
  for (const raw of ['\x1b', '\x07', '\r', '\u009b', RLO]) assert.ok(!out.stdout.includes(raw), `raw ${JSON.stringify(raw)} in --json output`);
  const result = JSON.parse(out.stdout);
  const failed = result.results.find((r) => r.path === 'notes.txt');
  assert.ok(failed.diagnostics.nearest.some((n) => n.text === `harmless${OSC52} clipboard line`), 'the JSON value is the exact text');
  assert.deepEqual(result.shellSuggestions, [`git rm old${ERASE}.txt`]);
});

test('a path with control characters in an error message is shown as pictures', () => {
  const out = run(['apply', '--root', `/nonexistent${OSC52}`, '-'], '');
  assert.equal(out.status, 2);
  assert.ok(!out.stderr.includes('\x1b') && !out.stderr.includes('\x07'), JSON.stringify(out.stderr));
  assert.match(out.stderr, /--root \/nonexistent␛\]52;c;aGFybWxlc3M=␇ is not a folder/);
});
