// Tool-call edits through the built package: every fixture of
// tests/fixtures/tools through applyToolCallsSync and applyToolCalls (async
// host), byte for byte, plus schemas, status, retry context and misuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  toolSchemas, applyToolCalls, applyToolCallsSync, fileStatus, retryContext, toolSystemPrompt, systemPrompt, DIFF_MODES, PROVIDER_TOOLS,
} from '../../pkg/node/index.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tools');

function readTree(root) {
  const out = new Map();
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) walk(full);
      else out.set(path.relative(root, full).split(path.sep).join('/'), fs.readFileSync(full));
    }
  };
  walk(root);
  return out;
}

/** A map-backed host recording what it was asked; async when `delay` is given. */
function memoryHost(files, { delay } = {}) {
  const host = {
    files: new Map(files),
    reads: [],
    writes: [],
    readFile(p) {
      host.reads.push(p);
      const v = host.files.get(p);
      return delay ? new Promise((r) => setTimeout(() => r(v), delay)) : v;
    },
    writeFile(p, content) {
      host.writes.push(p);
      host.files.set(p, Buffer.from(content, 'utf8'));
      return delay ? new Promise((r) => setTimeout(r, delay)) : undefined;
    },
    // Patches sent through shell calls delete and move files.
    deleteFile(p) {
      host.writes.push(p);
      host.files.delete(p);
      return delay ? new Promise((r) => setTimeout(r, delay)) : undefined;
    },
  };
  return host;
}

const cases = [];
for (const task of fs.readdirSync(fixtures).sort()) {
  const dir = path.join(fixtures, task);
  for (const file of fs.readdirSync(dir).sort()) {
    if (file.endsWith('.calls.json')) cases.push({ task, dir, name: file.slice(0, -'.calls.json'.length) });
  }
}

function check({ dir, name }, before, host, result) {
  const errorsFile = path.join(dir, `${name}.errors.txt`);
  if (fs.existsSync(errorsFile)) {
    assert.equal(result.ok, false);
    assert.equal(result.errors.join('\n') + '\n', fs.readFileSync(errorsFile, 'utf8'));
    assert.deepEqual(host.writes, []);
    assert.ok(result.results.every((r) => r.status !== 'applied'));
    return;
  }
  assert.equal(result.ok, true, result.errors.join('\n'));
  const override = path.join(dir, `${name}.after`);
  const expected = readTree(fs.existsSync(override) ? override : path.join(dir, 'after'));
  for (const [p, bytes] of expected) assert.deepEqual(host.files.get(p), bytes, `${p} differs`);
  for (const [p, bytes] of host.files) if (!expected.has(p)) assert.deepEqual(bytes, before.get(p), `${p} changed`);
  const deleted = [...before.keys()].filter((p) => !host.files.has(p));
  assert.deepEqual(deleted, result.filesDeleted.filter((p) => before.has(p)), 'deleted files');
}

test('every fixture applies through the sync and the async host, byte for byte', async () => {
  assert.ok(cases.length >= 50, `found ${cases.length} cases`);
  for (const c of cases) {
    const calls = JSON.parse(fs.readFileSync(path.join(c.dir, `${c.name}.calls.json`), 'utf8'));
    const expectFile = path.join(c.dir, `${c.name}.expect.json`);
    const expect = fs.existsSync(expectFile) ? JSON.parse(fs.readFileSync(expectFile, 'utf8')) : {};
    const before = readTree(path.join(c.dir, 'before'));

    const syncHost = memoryHost(before);
    const syncResult = applyToolCallsSync(calls, syncHost, expect.options);
    await test(`${c.task}/${c.name} (sync)`, () => check(c, before, syncHost, syncResult));
    if (expect.matchedBy) assert.deepEqual(syncResult.results.map((r) => r.matchedBy ?? null), expect.matchedBy, `${c.task}/${c.name}`);

    const asyncHost = memoryHost(before, { delay: 1 });
    const asyncResult = await applyToolCalls(calls, asyncHost, expect.options);
    await test(`${c.task}/${c.name} (async)`, () => check(c, before, asyncHost, asyncResult));
    assert.deepEqual(asyncResult, syncResult);
  }
});

test('toolSchemas: modes and API envelopes', () => {
  assert.deepEqual(DIFF_MODES, ['search_replace_multi', 'search_replace', 'anchored', 'off']);
  assert.deepEqual(PROVIDER_TOOLS, ['text_editor', 'text_editor_20250124', 'gemini_cli', 'hashline', 'apply_patch']);
  assert.ok(Object.isFrozen(DIFF_MODES) && Object.isFrozen(PROVIDER_TOOLS));
  // Each name is one the core takes (apply_patch is the Responses API's own tool).
  for (const mode of [...DIFF_MODES, ...PROVIDER_TOOLS]) {
    const api = mode === 'apply_patch' ? 'openai-responses' : undefined;
    assert.doesNotThrow(() => toolSchemas(mode, api && { api }), mode);
  }
  assert.deepEqual(toolSchemas().map((t) => t.name), ['write_file', 'edit_file']);
  assert.deepEqual(toolSchemas('off').map((t) => t.name), ['write_file']);
  assert.deepEqual(toolSchemas('search_replace_multi')[1].parameters.required, ['edits']);
  assert.deepEqual(toolSchemas('search_replace')[1].parameters.required, ['path', 'old_string', 'new_string']);
  assert.deepEqual(toolSchemas('anchored')[1].parameters.required, ['path', 'changes']);
  const openai = toolSchemas('anchored', { api: 'openai' });
  assert.equal(openai[1].type, 'function');
  assert.deepEqual(openai[1].function, toolSchemas('anchored')[1]);
  const responses = toolSchemas(undefined, { api: 'openai-responses' });
  assert.equal(responses[1].type, 'function');
  assert.equal(responses[1].name, 'edit_file');
  const anthropic = toolSchemas('search_replace', { api: 'anthropic' });
  assert.deepEqual(anthropic[1].input_schema, toolSchemas('search_replace')[1].parameters);
  // Properties in reading order: path, old_string, new_string, replace_all.
  assert.deepEqual(Object.keys(toolSchemas('search_replace_multi')[1].parameters.properties.edits.items.properties), ['path', 'old_string', 'new_string', 'replace_all']);
  assert.deepEqual(Object.keys(toolSchemas('anchored')[1].parameters.properties.changes.items.properties), ['start', 'end', 'content']);
  assert.deepEqual(Object.keys(toolSchemas()[0]), ['name', 'description', 'parameters']);
  assert.throws(() => toolSchemas('fuzzy'), /unknown diffMode "fuzzy"/);
  assert.throws(() => toolSchemas(undefined, { api: 'cohere' }), /unknown api "cohere"/);
  // Gemini's functionDeclarations reject additionalProperties; everything else is the plain shape.
  for (const mode of ['search_replace_multi', 'search_replace', 'anchored', 'off']) {
    const gemini = toolSchemas(mode, { api: 'gemini' });
    assert.ok(!JSON.stringify(gemini).includes('additionalProperties'), mode);
    const strip = (v) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'additionalProperties' ? undefined : x)));
    // parametersJsonSchema: Gemini's `parameters` wants the SDK's enum-typed Schema.
    const renamed = strip(toolSchemas(mode)).map(({ parameters, ...rest }) => ({ ...rest, parametersJsonSchema: parameters }));
    assert.deepEqual(gemini, renamed, mode);
  }
});

test('a failed reply: nothing written, a retry context naming the call', async () => {
  const host = memoryHost(new Map([['a.go', Buffer.from('func a() {\n}\n\nfunc b() {\n}\n')]]));
  const calls = [
    { name: 'write_file', arguments: { path: 'new.go', content: 'package x\n' } },
    { name: 'edit_file', arguments: JSON.stringify({ path: 'a.go', changes: [{ start: ['func a() {'], end: ['}'], content: [] }] }) },
  ];
  const result = await applyToolCalls(calls, host);
  assert.equal(result.ok, false);
  assert.deepEqual(host.writes, []);
  assert.deepEqual(result.results.map((r) => [r.status, r.errorKind]), [['skipped', 'atomic-aborted'], ['failed', 'ambiguous']]);
  assert.equal(result.errors[0].startsWith('call 2 (edit_file), change 1, a.go: end anchor not unique (lines 2 and 5)'), true, result.errors[0]);
  const block = retryContext(result);
  assert.match(block, /^@retry_context\n/);
  assert.match(block, /\n@end retry_context\n$/);
  assert.ok(block.includes(`- ${result.errors[0]}\n`));
  assert.ok(block.includes('"start": [\n'), 'the calls are echoed as JSON with parsed arguments');
  // In the model's own key order, not sorted.
  const at = (key) => block.indexOf(`"${key}": `);
  assert.ok(at('start') < at('end') && at('end') < block.indexOf('"content": []'), block);
  assert.ok(at('name') < at('arguments'), block);
  assert.ok(block.indexOf('"path": "new.go"') < block.indexOf('"content": "package x\\n"'), block);
  assert.equal(retryContext({ ok: true, errors: [], calls: [] }), '');
});

test('misuse is a clear error', () => {
  const host = memoryHost(new Map());
  assert.throws(() => applyToolCallsSync({ name: 'write_file' }, host), /expects an array/);
  assert.throws(() => applyToolCallsSync([], {}), /host must be an object/);
  assert.throws(() => applyToolCallsSync([], host, { matching: 'fuzzy' }), /option matching must be one of "exact", "tolerant", got "fuzzy"/);
  const asyncHost = memoryHost(new Map([['a', 'x']]), { delay: 1 });
  assert.throws(() => applyToolCallsSync([{ name: 'edit_file', arguments: { path: 'a', old_string: 'x', new_string: 'y' } }], asyncHost), /Promise/);
});

test('dryRun reports and writes nothing; refused paths are never read', () => {
  const host = memoryHost(new Map([['a.txt', 'one\n']]));
  const calls = [{ name: 'edit_file', arguments: { edits: [{ path: './a.txt', old_string: 'one', new_string: 'two' }] } }];
  const result = applyToolCallsSync(calls, host, { dryRun: true });
  assert.equal(result.ok, true);
  assert.equal(result.results[0].status, 'validated');
  assert.equal(result.results[0].matchedBy, 'exact');
  assert.deepEqual(result.filesModified, ['a.txt']);
  assert.deepEqual(host.writes, []);
  const refused = applyToolCallsSync([{ name: 'write_file', arguments: { path: '../../etc/passwd', content: 'x' } }], host);
  assert.equal(refused.results[0].errorKind, 'path-escape');
  assert.deepEqual(host.reads, ['a.txt']);
});

test('fileStatus follows the status table', () => {
  assert.equal(fileStatus({ context: 'a', local: 'a' }), '');
  assert.equal(fileStatus({ context: 'a', output: 'b' }), 'M');
  assert.equal(fileStatus({ context: null, output: 'b' }), 'A');
  assert.equal(fileStatus({ output: 'b', local: null }), 'A');
  assert.equal(fileStatus({ context: 'a', local: 'edited' }), '~');
  assert.equal(fileStatus({ context: 'a', local: null }), '~');
  assert.equal(fileStatus({ context: 'a', local: 'edited', output: 'b' }), '~M');
  assert.throws(() => fileStatus({ context: 3 }), /context must be a string/);
});

test('prompts', () => {
  assert.match(systemPrompt('tools'), /1-4 lines/);
  assert.match(toolSystemPrompt(), /edits list/);
  assert.doesNotMatch(toolSystemPrompt('off'), /edit_file/);
  assert.match(toolSystemPrompt('anchored'), /start and end are anchors/);
});
