// The README's first example runs against the built package and prints what
// its comments say, so the README stays true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the README first example prints the events its comments show', async () => {
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
});
