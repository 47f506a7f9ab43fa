// The packed tarball's types as consumers meet them: checked by
// @arethetypeswrong/cli and publint, compiled by tsc from CommonJS under
// node16 resolution and from `editblocks/web`, and every ```js / ```ts
// snippet of both READMEs type-checked (strict) against the installed package.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-types-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let tarball;

before(() => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  tarball = path.join(scratch, JSON.parse(out)[0].filename);
});

function project(name, packageJson, compilerOptions, files) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, ...packageJson }, null, 2));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], skipLibCheck: false,
      // Node's and VS Code's own types, from this repository's pinned dev dependencies.
      typeRoots: [path.join(root, 'node_modules', '@types')], types: [],
      ...compilerOptions,
    },
    files: Object.keys(files).filter((f) => /\.[cm]?[jt]s$/.test(f)),
  }, null, 2));
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  return dir;
}

function tsc(dir) {
  try {
    sh(bin('tsc'), ['-p', dir], dir);
    return '';
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}

test('@arethetypeswrong/cli finds no problem with any JavaScript entry point (editblocks/ai-sdk: ESM only, as ai is)', () => {
  // attw exits before a piped stdout drains past 64 KiB: let it write to a file.
  const report = path.join(scratch, 'attw.json');
  try {
    execFileSync('sh', ['-c', `"$0" "$1" --format json --exclude-entrypoints ./style.css ./editblocks_bg.wasm ./editblocks_lite_bg.wasm > "$2"`, bin('attw'), tarball, report], { cwd: scratch });
  } catch {
    // attw exits 1 when it finds problems; the report says which.
  }
  const out = fs.readFileSync(report, 'utf8');
  const { analysis, problems } = JSON.parse(out);
  for (const entry of ['.', './web', './lite', './ai-sdk']) assert.ok(analysis.entrypoints[entry], `${entry} was analysed`);
  const list = Object.values(problems || {}).flat().map((p) => `${p.kind} ${p.entrypoint ?? ''} ${p.resolutionKind ?? ''}`.trim());
  // editblocks/ai-sdk is ESM only because the `ai` package it plugs into is (ai 7 ships no CommonJS).
  assert.deepEqual(list.filter((p) => p !== 'CJSResolvesToESM ./ai-sdk node16-cjs'), []);
});

test('a Node project without the DOM library (lib es2023, types node, strict, no skipLibCheck) type-checks', () => {
  const code = [
    "import { init, initSync, parseEdits, applyEdits, nodeHost, type EditBlock } from 'editblocks';",
    "import { readFileSync } from 'node:fs';",
    "const blocks: EditBlock[] = parseEdits('a.txt\\n<<<<<<< SEARCH\\na\\n=======\\nb\\n>>>>>>> REPLACE\\n');",
    "initSync(readFileSync('editblocks_bg.wasm'));",
    'void init().then(() => applyEdits(blocks, nodeHost(process.cwd()), { dryRun: true })).then((r) => console.log(r.results.length));',
    '',
  ].join('\n');
  const esm = project('node-no-dom-esm', { type: 'module' }, { module: 'node16', moduleResolution: 'node16', target: 'es2023', lib: ['es2023'], types: ['node'] }, { 'main.ts': code });
  assert.equal(tsc(esm), '');
  const cjs = project('node-no-dom-cjs', {}, { module: 'node16', moduleResolution: 'node16', target: 'es2023', lib: ['es2023'], types: ['node'] }, { 'main.ts': code });
  assert.equal(tsc(cjs), '');
});

test('publint --strict finds nothing to fix in the package', () => {
  let out;
  try {
    out = sh(bin('publint'), ['run', path.join(root, 'pkg'), '--strict', '--pack', 'npm'], root);
  } catch (e) {
    assert.fail(`publint reported:\n${e.stdout}${e.stderr}`);
  }
  assert.match(out, /All good!/);
});

test('a CommonJS TypeScript project under node16 resolution type-checks (no TS1479)', () => {
  const dir = project('cjs-node16', {}, { module: 'node16', moduleResolution: 'node16' }, {
    'main.ts': [
      "import { parseEdits, applyEditsSync, nodeHost, HostFailureError, type EditBlock } from 'editblocks';",
      "import eb = require('editblocks');",
      "const blocks: EditBlock[] = parseEdits('a.txt\\n<<<<<<< SEARCH\\na\\n=======\\nb\\n>>>>>>> REPLACE\\n');",
      "const result = applyEditsSync(blocks, nodeHost('.'), { dryRun: true });",
      "const isHostFailure: boolean = result instanceof HostFailureError;",
      'console.log(eb.detectFormat(""), isHostFailure);',
      '',
    ].join('\n'),
  });
  assert.equal(tsc(dir), '');
});

test('editblocks/web types have no nodeHost; renderInProgressEditBlock(path) and renderEditsSummary(toolResult) type-check', () => {
  const dir = project('web-types', { type: 'module' }, { module: 'esnext', moduleResolution: 'bundler' }, {
    'main.ts': [
      "import * as web from 'editblocks/web';",
      "import { renderInProgressEditBlock, renderEditsSummary, applyToolCallsSync, type FileHost } from 'editblocks/web';",
      '// @ts-expect-error the browser build has no nodeHost',
      'web.nodeHost(".");',
      "const host: FileHost = { readFile: () => 'a\\n', writeFile: () => {} };",
      "const toolResult = applyToolCallsSync([{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\\n' } }], host);",
      "const html: string = renderInProgressEditBlock('src/a.py') + renderEditsSummary(toolResult) + renderEditsSummary(toolResult.results);",
      'console.log(html);',
      '',
    ].join('\n'),
  });
  assert.equal(tsc(dir), '');
});

test('editblocks/lite types hold parsing and rendering only, under node16 (ESM and CommonJS) and bundler resolution', () => {
  const code = [
    "import { parseEdits, renderEditBlock, renderInProgressEditBlock, diffBlock, EditStream, init, type EditBlock, type DiffLine } from 'editblocks/lite';",
    "import * as lite from 'editblocks/lite';",
    "const blocks: EditBlock[] = parseEdits('a.txt\\n<<<<<<< SEARCH\\na\\n=======\\nb\\n>>>>>>> REPLACE\\n');",
    'const lines: DiffLine[] = diffBlock(blocks[0].oldLines, blocks[0].newLines);',
    'const stream = new EditStream();',
    "const html: string = renderEditBlock(blocks[0]) + renderInProgressEditBlock(stream) + renderInProgressEditBlock('a.txt', ['x']);",
    '// @ts-expect-error editblocks/lite does not apply edits',
    'lite.applyEditsSync(blocks, { readFile: () => null, writeFile: () => {} });',
    'void init().then(() => console.log(html, lines.length));',
    '',
  ].join('\n');
  const esm = project('lite-types-esm', { type: 'module' }, { module: 'node16', moduleResolution: 'node16' }, { 'main.ts': code });
  assert.equal(tsc(esm), '');
  const cjs = project('lite-types-cjs', {}, { module: 'node16', moduleResolution: 'node16' }, { 'main.ts': code.replace("import * as lite from 'editblocks/lite';", "import lite = require('editblocks/lite');") });
  assert.equal(tsc(cjs), '');
  const bundler = project('lite-types-bundler', { type: 'module' }, { module: 'esnext', moduleResolution: 'bundler' }, { 'main.ts': code });
  assert.equal(tsc(bundler), '');
});

/** The ```js / ```ts blocks of a Markdown file, with the line each starts on. */
function snippets(markdown) {
  const found = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(js|ts|javascript|typescript)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    found.push({ lang: open[1].startsWith('t') ? 'ts' : 'js', line: start + 1, code: lines.slice(start, end).join('\n') + '\n' });
    i = end;
  }
  return found;
}

const documents = [['package README', 'pkg-template/README.md'], ['repository README', 'README.md'],
  ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => [`docs/${f}`, `docs/${f}`])];
for (const [label, readme] of documents) {
  const hasSnippets = snippets(fs.readFileSync(path.join(root, readme), 'utf8')).length > 0;
  if (readme.startsWith('docs/') && !hasSnippets) continue;
  test(`every js/ts snippet of the ${label} type-checks against the package (tsc --strict)`, () => {
    // ```js snippets run in tests/js/readme.test.mjs with their output checked; ```ts ones are checked here.
    const found = snippets(fs.readFileSync(path.join(root, readme), 'utf8')).filter((s) => s.lang === 'ts');
    if (found.length === 0) return;
    const files = {};
    for (const s of found) {
      // A snippet that calls require() is CommonJS; the others are modules.
      const cjs = /\brequire\(/.test(s.code);
      const name = `line-${s.line}.${s.lang === 'ts' ? (cjs ? 'cts' : 'ts') : cjs ? 'cjs' : 'js'}`;
      files[name] = s.code;
    }
    // Stylesheets are the bundler's business (Vite and webpack declare `*.css` the same way).
    files['css.d.ts'] = "declare module '*.css';\n";
    const dir = project(`snippets-${readme.replace(/[^\w]+/g, '-')}`, { type: 'module' }, {
      module: 'nodenext', moduleResolution: 'nodenext', allowJs: true, checkJs: true, types: ['node', 'vscode'],
    }, files);
    const errors = tsc(dir);
    assert.equal(errors, '', `${readme}: a snippet does not type-check (files are named by the line the snippet starts on):\n${errors}`);
  });
}
