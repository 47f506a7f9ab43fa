// Every JavaScript snippet (```js) of both READMEs and of docs/ runs against the built
// package, in a folder of its own, and prints what the README says it prints,
// so the READMEs stay true. (The ```ts snippets are type-checked by
// tests/package/types.test.mjs.)
//
// The format, in the README's Markdown (HTML comments: not shown to readers):
// - right after a snippet's closing fence, `<!-- prints:` then the lines it
//   prints, then `-->`; every ```js snippet has one. A line of it ending in
//   `…` stands for any printed line that starts with what comes before.
//   Trailing spaces and trailing blank lines are not compared.
// - before a snippet's opening fence, optionally, `<!-- files: {"path":
//   "text"} -->`: the files the snippet's folder holds when it starts.
//
// A snippet runs as written: `editblocks` resolves to the built package (a
// link in the folder's node_modules), a stylesheet import is empty (as a
// bundler's is), and a snippet that draws into `document` gets a page of
// plain objects. None of the ```js snippets needs a network or a key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The ```js snippets of a Markdown text: line, code, the output comment and the files comment. */
export function jsSnippets(markdown) {
  const lines = markdown.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(js|javascript)\s*$/.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const snippet = { line: start + 1, code: lines.slice(start, end).join('\n') + '\n', prints: null, files: {} };
    // The files comment: the last non-blank line before the fence.
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const files = before >= 0 ? /^<!-- files: (.*) -->$/.exec(lines[before]) : null;
    if (files) snippet.files = JSON.parse(files[1]);
    // The output comment: the next non-blank line after the fence.
    let after = end + 1;
    while (after < lines.length && lines[after].trim() === '') after++;
    if (lines[after] === '<!-- prints:') {
      let close = after + 1;
      while (close < lines.length && lines[close] !== '-->') close++;
      snippet.prints = lines.slice(after + 1, close);
    }
    found.push(snippet);
    i = end;
  }
  return found;
}

/** Whether `printed` (stdout) is what `expected` (the comment's lines) says. */
function printedAs(printed, expected) {
  const tidy = (list) => {
    const out = list.map((l) => l.replace(/\s+$/, ''));
    while (out.length && out[out.length - 1] === '') out.pop();
    return out;
  };
  const actual = tidy(printed.split('\n'));
  const wanted = tidy(expected);
  if (actual.length !== wanted.length) return false;
  return wanted.every((w, i) => (w.endsWith('…') ? actual[i].startsWith(w.slice(0, -1)) : actual[i] === w));
}

// Loaded before a snippet (node --import): stylesheets import as empty
// modules, and `document` is a page of plain objects when the snippet uses it.
const PRELOAD = `
import { register } from 'node:module';
register('./stylesheets.mjs', import.meta.url);
if (process.env.README_DOCUMENT) {
  const element = () => ({ innerHTML: '', children: [], append(...nodes) { this.children.push(...nodes); } });
  globalThis.document = { body: element(), createElement: element };
}
`;
const STYLESHEETS = `
export async function load(url, context, next) {
  if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  return next(url, context);
}
`;

function runSnippet(snippet, label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-readme-'));
  try {
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(path.join(root, 'pkg'), path.join(dir, 'node_modules', 'editblocks'), 'dir');
    fs.symlinkSync(path.join(root, 'pkg', 'bin', 'editblocks.mjs'), path.join(dir, 'node_modules', '.bin', 'editblocks'));
    // The other packages a snippet imports (the SDKs the guides plug into), from this repository's dev dependencies.
    for (const [, name] of snippet.code.matchAll(/from '((?:@[\w.-]+\/)?[\w.-]+)[^']*'/g)) {
      const installed = path.join(root, 'node_modules', name);
      const link = path.join(dir, 'node_modules', name);
      if (name === 'editblocks' || fs.existsSync(link) || !fs.existsSync(installed)) continue;
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(installed, link, 'dir');
    }
    fs.writeFileSync(path.join(dir, 'preload.mjs'), PRELOAD);
    fs.writeFileSync(path.join(dir, 'stylesheets.mjs'), STYLESHEETS);
    for (const [file, text] of Object.entries(snippet.files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    // A snippet that calls require() is CommonJS; the others are modules.
    const file = path.join(dir, /\brequire\(/.test(snippet.code) ? 'snippet.cjs' : 'snippet.mjs');
    fs.writeFileSync(file, snippet.code);
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
    if (/\bdocument\./.test(snippet.code)) env.README_DOCUMENT = '1';
    else delete env.README_DOCUMENT;
    let printed;
    try {
      printed = execFileSync(process.execPath, ['--import', pathToFileURL(path.join(dir, 'preload.mjs')).href, file], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      assert.fail(`${label}: the snippet at line ${snippet.line} failed:\n${e.stderr || e.message}`);
    }
    return printed;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The READMEs, and every guide in docs/ that has js snippets.
const documents = [['repository README', 'README.md'], ['package README', 'pkg-template/README.md'],
  ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort()
    .map((f) => [`docs/${f}`, `docs/${f}`])
    .filter(([, file]) => jsSnippets(fs.readFileSync(path.join(root, file), 'utf8')).length > 0)];
for (const [label, readme] of documents) {
  test(`every js snippet of the ${label} runs and prints what its output comment says`, () => {
    const found = jsSnippets(fs.readFileSync(path.join(root, readme), 'utf8'));
    assert.ok(found.length > 0, `${readme} has js snippets`);
    for (const snippet of found) {
      assert.ok(snippet.prints !== null, `${readme}: the js snippet at line ${snippet.line} has no <!-- prints: ... --> comment after it`);
      const printed = runSnippet(snippet, readme);
      assert.ok(printedAs(printed, snippet.prints), `${readme}: the js snippet at line ${snippet.line} printed\n${printed}\ninstead of\n${snippet.prints.join('\n')}`);
    }
  });
}

test('the output check compares every line, and `…` only the start of one', () => {
  assert.ok(printedAs('a  \nb\n\n', ['a', 'b']));
  assert.ok(printedAs('<div class="x">long</div>\n', ['<div class=…']));
  assert.ok(!printedAs('a\nb\n', ['a']));
  assert.ok(!printedAs('a\n', ['a', 'b']));
  assert.ok(!printedAs('<span>\n', ['<div…']));
  const [snippet] = jsSnippets('<!-- files: {"a.txt": "x\\n"} -->\n\n```js\nconsole.log(1);\n```\n\n<!-- prints:\n1\n-->\n');
  assert.deepEqual(snippet, { line: 4, code: 'console.log(1);\n', prints: ['1'], files: { 'a.txt': 'x\n' } });
});

test('the README first example prints the events its comments show, the last one from finish()', async () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## First example'));
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  const entry = pathToFileURL(path.join(root, 'pkg', 'node', 'index.mjs')).href;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-readme-')), 'first-example.mjs');
  fs.writeFileSync(file, code.replace("from 'editblocks'", `from '${entry}'`).replace(/console\.log/g, 'globalThis.readmeLog'));
  const printed = [];
  globalThis.readmeLog = (...args) => printed.push(args);
  try {
    await import(pathToFileURL(file).href);
  } finally {
    delete globalThis.readmeLog;
  }
  assert.deepEqual(printed.map((p) => p[0]), ['block-start', 'block-update', 'block-update', 'block-update', 'block-complete']);
  assert.equal(printed[0][1], 'src/math.py');
  assert.deepEqual(printed[1][1], ['def add(a, b):', '    return a - b']);
  const block = printed[4][1];
  assert.equal(block.anchor, 'def add(a, b):');
  assert.equal(block.oldLines, '    return a - b');
  assert.equal(block.newLines, '    return a + b');
  assert.equal(block.lineNumber, 3);
  // The reply's last line has no line break: only finish() completes its block.
  assert.ok(!code.includes("»»» EDIT END\\n'"), 'the last chunk ends without a line break');
});
