// Every message of the CLI, through every path that prints text from the
// reply or the files, against a table of terminal payloads. The payloads are
// harmless (a clipboard write of the word "harmless", a link to
// example.invalid, an erase-line, a bell); what is checked is that none of
// them reaches a terminal raw: the human output shows each control character
// as a picture or <U+XXXX> (only the CLI's own colour codes are escapes), and
// --json escapes each as \uXXXX while the parsed value stays the exact text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');

// name, the raw payload, how the human output shows it.
const PAYLOADS = [
  ['ESC CSI erase-line', '\x1b[2K', '␛[2K'],
  ['ESC CSI cursor up', '\x1b[1A', '␛[1A'],
  ['OSC 52 clipboard (BEL)', '\x1b]52;c;aGFybWxlc3M=\x07', '␛]52;c;aGFybWxlc3M=␇'],
  ['OSC 52 clipboard (ST)', '\x1b]52;c;aGFybWxlc3M=\x1b\\', '␛]52;c;aGFybWxlc3M=␛\\'],
  ['OSC 8 link', '\x1b]8;;https://example.invalid/\x07link\x1b]8;;\x07', '␛]8;;https://example.invalid/␇link␛]8;;␇'],
  ['OSC title', '\x1b]0;harmless\x07', '␛]0;harmless␇'],
  ['BEL', '\x07', '␇'],
  ['lone CR', 'a\rb', 'a␍b'],
  ['backspace', 'a\bb', 'a␈b'],
  ['C1 CSI', '\u009b2K', '<U+009B>2K'],
  ['C1 OSC', '\u009d52;c;aGFybWxlc3M=\u009c', '<U+009D>52;c;aGFybWxlc3M=<U+009C>'],
  ['C1 NEL', 'a\u0085b', 'a<U+0085>b'],
  ['DEL', 'a\x7fb', 'a␡b'],
  ['bidi override RLO', 'a\u202eb', 'a<U+202E>b'],
  ['bidi isolate LRI', 'a\u2066b\u2069', 'a<U+2066>b<U+2069>'],
  ['line separator', 'a\u2028b', 'a<U+2028>b'],
  ['paragraph separator', 'a\u2029b', 'a<U+2029>b'],
  ['zero-width space', 'a\u200bb', 'a<U+200B>b'],
];

const run = (args, input) => {
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, env });
};

function project(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-cli-payloads-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** What a terminal could act on, once the CLI's own colour codes (SGR) are taken out: [index, code]. */
function rawControl(text) {
  const m = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.exec(text.replace(/\x1b\[\d+m/g, '').replace(/[\n\t]/g, ''));
  return m && `U+${m[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} at ${m.index}`;
}
/** The same for JSON text: JSON escapes C0 itself; DEL, C1 and the invisible characters must be \u escapes too. */
function rawInJson(text) {
  const m = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/u.exec(text);
  return m && `U+${m[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} at ${m.index}`;
}

const block = (file, search, replace) => [file, '<<<<<<< SEARCH', search, '=======', replace, '>>>>>>> REPLACE', ''].join('\n');

for (const [name, raw, shown] of PAYLOADS) {
  // The reply's own lines cannot hold a CR, NEL or a separator as they are (each breaks the line): the file can.
  const inLine = !/[\r\u0085\u2028\u2029]/.test(raw);

  test(`${name}: the result output (failed reason, nearest lines, diff, summary, suggestions) shows it escaped`, () => {
    const dir = project({ 'quoted.txt': `alpha ${raw} beta\n`, 'ok.txt': 'keep\nold value\n' });
    const reply = [
      `Then run \`git rm stale${raw}.txt\`.`,
      '',
      block('quoted.txt', `alpha ${inLine ? raw : ''} betx`, 'gone'),
      block('ok.txt', 'old value', `new ${inLine ? raw : ''} value`),
      block(`ok${raw}.txt`, 'x', 'y'),
    ].join('\n');
    for (const colour of [[], ['--color']]) {
      const out = run(['apply', '--root', dir, '--no-stage', '--dry-run', ...colour, '-'], reply);
      assert.equal(out.status, 1, out.stderr);
      const text = out.stdout + out.stderr;
      assert.equal(rawControl(text), null, `raw control in the output ${colour}:\n${JSON.stringify(text)}`);
      // The nearest line quotes the file's line, payload shown.
      assert.ok(text.includes(`alpha ${shown} beta`), `the nearest line shows the payload:\n${text}`);
      if (inLine) assert.ok(text.replace(/\x1b\[\d+m/g, '').includes(`new ${shown} value`), `the diff shows the payload:\n${text}`);
      assert.ok(text.includes(`stale${shown}.txt`), `the suggested command shows the payload:\n${text}`);
    }
    const json = run(['apply', '--root', dir, '--no-stage', '--dry-run', '--json', '-'], reply);
    assert.equal(json.status, 1, json.stderr);
    assert.equal(rawInJson(json.stdout), null, `raw character in --json:\n${JSON.stringify(json.stdout)}`);
    const result = JSON.parse(json.stdout);
    const failed = result.results.find((r) => r.path === 'quoted.txt');
    assert.ok(failed.diagnostics.nearest.some((n) => n.text === `alpha ${raw} beta`), 'the JSON value is the exact text');
    assert.deepEqual(result.shellSuggestions, [`git rm stale${raw}.txt`]);
  });

  test(`${name}: --stop-on-unmatched shows the reason and the path escaped, in text and in --json`, () => {
    const dir = project({ 'quoted.txt': `alpha ${raw} beta\n` });
    const replies = [
      // The reason quotes the file's nearest line and the block's text.
      block('quoted.txt', `alpha ${inLine ? raw : ''} gamma`, 'gone'),
      // The path itself holds the payload (when a path line can hold it).
      ...(inLine ? [block(`new${raw}.txt`, 'absent', 'gone')] : []),
    ];
    for (const reply of replies) {
      const out = run(['apply', '--root', dir, '--stop-on-unmatched', '--color', '-'], reply);
      const text = out.stdout + out.stderr;
      assert.equal(rawControl(text), null, `raw control in the stop message:\n${JSON.stringify(text)}`);
      const json = run(['apply', '--root', dir, '--stop-on-unmatched', '--json', '-'], reply);
      assert.equal(rawInJson(json.stdout), null, `raw character in --json:\n${JSON.stringify(json.stdout)}`);
      assert.equal(rawControl(json.stderr), null, `raw control on stderr:\n${JSON.stringify(json.stderr)}`);
      if (out.status === 3) {
        assert.ok(text.includes(shown), `the stop message shows the payload:\n${text}`);
        assert.equal(json.status, 3);
        const stopped = JSON.parse(json.stdout).stopped;
        assert.ok(JSON.stringify(stopped).includes(JSON.stringify(raw).slice(1, -1)), 'the JSON value is the exact text');
      }
    }
    // The first reply always stops: its old text is not in the file.
    assert.equal(run(['apply', '--root', dir, '--stop-on-unmatched', '-'], replies[0]).status, 3);
    assert.equal(fs.readFileSync(path.join(dir, 'quoted.txt'), 'utf8'), `alpha ${raw} beta\n`);
  });

  test(`${name}: usage errors and failures naming a path show it escaped`, () => {
    for (const args of [['apply', `reply${raw}.md`], ['apply', '--root', `/nonexistent${raw}`, '-'], ['apply', `--bogus${raw}`], [`cmd${raw}`]]) {
      const out = run(args, '');
      assert.equal(out.status, 2, out.stderr);
      assert.equal(rawControl(out.stdout + out.stderr), null, `raw control for ${JSON.stringify(args)}:\n${JSON.stringify(out.stderr)}`);
      assert.ok(out.stderr.includes(shown), `the message shows the payload:\n${out.stderr}`);
    }
  });
}
