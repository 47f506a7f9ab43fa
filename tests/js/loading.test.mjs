// The built package loads in Node with no init call, through import and require,
// and both share one wasm instance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esm from '../../pkg/node/index.mjs';

const require = createRequire(import.meta.url);

test('import works without init', () => {
  assert.deepEqual(esm.detectShellSuggestions('then `git rm old.py`'), ['git rm old.py']);
});

test('require works without init and is the same instance as import', () => {
  const cjs = require('../../pkg/node/index.cjs');
  assert.equal(cjs.detectShellSuggestions, esm.detectShellSuggestions);
});

test('init and initSync are harmless in Node', async () => {
  await esm.init();
  esm.initSync();
});

test('misuse becomes a JS error naming the problem', () => {
  assert.throws(() => esm.systemPrompt('nonsense'), /systemPrompt does not know "nonsense"/);
});
