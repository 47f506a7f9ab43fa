// The providers' own tools through the built package: schemas per API,
// answers per call id, the edit session behind undo_edit, folder views
// through nodeHost.listDir, and misuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  toolSchemas, applyToolCalls, applyToolCallsSync, toolResultMessages, toolSystemPrompt, nodeHost, EditSession, systemPrompt,
} from '../../pkg/node/index.mjs';

function mapHost(entries) {
  const files = new Map(entries);
  return {
    files,
    readFile: (p) => files.get(p) ?? null,
    writeFile: (p, c) => void files.set(p, c),
    deleteFile: (p) => void files.delete(p),
  };
}

const editor = (id, input) => ({ type: 'tool_use', id, name: 'str_replace_based_edit_tool', input });

test('toolSchemas: the providers\' own tools for each API', () => {
  assert.deepEqual(toolSchemas('text_editor', { api: 'anthropic' }), [{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }]);
  assert.deepEqual(toolSchemas('text_editor', { api: 'anthropic', maxCharacters: 8000 }), [
    { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 8000 },
  ]);
  assert.deepEqual(toolSchemas('text_editor_20250124', { api: 'anthropic' }), [{ type: 'text_editor_20250124', name: 'str_replace_editor' }]);
  // Elsewhere the text editor is a function with the same commands.
  const [asFunction] = toolSchemas('text_editor', { api: 'openai' });
  assert.equal(asFunction.function.name, 'str_replace_based_edit_tool');
  assert.deepEqual(asFunction.function.parameters.properties.command.enum, ['view', 'create', 'str_replace', 'insert']);
  assert.deepEqual(toolSchemas('gemini_cli').map((t) => t.name), ['replace', 'write_file']);
  assert.deepEqual(Object.keys(toolSchemas('gemini_cli')[0].parameters.properties), ['file_path', 'old_string', 'new_string', 'expected_replacements']);
  // The hashline tools are the ones its prompt names.
  const hashline = toolSchemas('hashline', { api: 'anthropic' });
  assert.deepEqual(hashline.map((t) => t.name), ['read', 'edit']);
  assert.match(systemPrompt('hashline'), /The `read` tool shows a file/);
  assert.match(systemPrompt('hashline'), /you call `edit`/);
  for (const tool of hashline) assert.equal(tool.input_schema.type, 'object');
  assert.deepEqual(toolSchemas('apply_patch', { api: 'openai-responses' }), [{ type: 'apply_patch' }]);
  assert.throws(() => toolSchemas('apply_patch', { api: 'anthropic' }), /built-in tool of the OpenAI Responses API/);
  assert.match(toolSystemPrompt('text_editor'), /old_str must occur exactly once/);
});

test('toolSchemas for the Responses API are strict: every property required, optional ones nullable', () => {
  for (const mode of ['search_replace_multi', 'search_replace', 'anchored', 'off', 'text_editor', 'gemini_cli', 'hashline']) {
    for (const tool of toolSchemas(mode, { api: 'openai-responses' })) {
      assert.equal(tool.strict, true, mode);
      const check = (schema, where) => {
        if (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'))) {
          assert.equal(schema.additionalProperties, false, where);
          assert.deepEqual(schema.required, Object.keys(schema.properties), where);
          for (const [name, sub] of Object.entries(schema.properties)) check(sub, `${where}.${name}`);
        }
        if (schema.items) check(schema.items, `${where}[]`);
      };
      check(tool.parameters, `${mode}:${tool.name}`);
    }
  }
  const edit = toolSchemas('search_replace', { api: 'openai-responses' })[1];
  assert.deepEqual(edit.parameters.properties.replace_all.type, ['boolean', 'null']);
  assert.equal(edit.parameters.properties.path.type, 'string');
  // A strict call sends null for what it leaves out: taken as not given.
  const host = mapHost([['a.txt', 'one\ntwo\n']]);
  const result = applyToolCallsSync([{ type: 'function_call', call_id: 'c1', name: 'edit_file',
    arguments: JSON.stringify({ path: 'a.txt', old_string: 'two', new_string: 'three', replace_all: null }) }], host);
  assert.equal(result.ok, true, result.errors.join('\n'));
  assert.equal(host.files.get('a.txt'), 'one\nthree\n');
});

test('toolResultMessages: one answer per call id, in each API\'s shape', () => {
  const host = mapHost([['a.txt', 'one\ntwo\n']]);
  const anthropic = applyToolCallsSync([
    { type: 'text', text: 'Looking.' },
    // A tool the provider runs itself is not the client's to answer.
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'python sum' } },
    editor('toolu_1', { command: 'view', path: 'a.txt' }),
    editor('toolu_2', { command: 'str_replace', path: 'a.txt', old_str: 'two', new_str: 'three' }),
  ], host);
  assert.equal(anthropic.ok, true);
  const [message] = toolResultMessages(anthropic);
  assert.equal(message.role, 'user');
  assert.deepEqual(message.content.map((b) => [b.type, b.tool_use_id, b.is_error]), [['tool_result', 'toolu_1', undefined], ['tool_result', 'toolu_2', undefined]]);
  assert.equal(message.content[0].content, "Here's the content of a.txt with line numbers:\n     1\tone\n     2\ttwo\n");
  // Asked for another API: the same answers, that API's shape.
  assert.deepEqual(toolResultMessages(anthropic, { api: 'openai' }).map((m) => [m.role, m.tool_call_id]), [['tool', 'toolu_1'], ['tool', 'toolu_2']]);
  assert.deepEqual(toolResultMessages(anthropic, { api: 'plain' }).map((m) => [m.id, m.name, m.ok]), [
    ['toolu_1', 'str_replace_based_edit_tool', true], ['toolu_2', 'str_replace_based_edit_tool', true],
  ]);
  // Custom tool calls (free-form input) are answered as such.
  const custom = applyToolCallsSync([{ id: 'call_c', type: 'custom', custom: { name: 'write_file', input: JSON.stringify({ path: 'b.txt', content: 'b\n' }) } }], host);
  assert.equal(custom.ok, true);
  assert.deepEqual(toolResultMessages(custom, { api: 'openai-responses' }), [{ type: 'custom_tool_call_output', call_id: 'call_c', output: 'Wrote b.txt.' }]);
  // An API that answers by id needs the id.
  const plain = applyToolCallsSync([{ name: 'write_file', arguments: { path: 'c.txt', content: 'c\n' } }], host);
  assert.throws(() => toolResultMessages(plain, { api: 'anthropic' }), /call 1 \(write_file\) has no id/);
  assert.deepEqual(toolResultMessages(plain), [{ name: 'write_file', ok: true, output: 'Wrote c.txt.' }]);
  assert.throws(() => toolResultMessages({}, { api: 'openai' }), /expects what applyToolCalls returned/);
  assert.throws(() => toolResultMessages(plain, { api: 'cohere' }), /option api must be one of/);
});

test('EditSession: undo_edit goes back one change at a time, per session, and only after a written reply', () => {
  const host = mapHost([['a.txt', 'one\n']]);
  const session = new EditSession();
  const other = new EditSession();
  const run = (calls, s = session, options = {}) => applyToolCallsSync(calls, host, { session: s, ...options });
  assert.equal(run([editor('t1', { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'two' })]).ok, true);
  assert.equal(run([editor('t2', { command: 'insert', path: 'a.txt', insert_line: 1, insert_text: 'three' })]).ok, true);
  assert.equal(host.files.get('a.txt'), 'two\nthree\n');
  assert.equal(session.depth('a.txt'), 2);
  // A dry run and a refused reply leave the history alone.
  run([editor('t3', { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'zero' })], session, { dryRun: true });
  run([editor('t4', { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'zero' }), editor('t5', { command: 'str_replace', path: 'a.txt', old_str: 'nine', new_str: 'x' })]);
  assert.equal(session.depth('a.txt'), 2);
  // Another session has no history of this file.
  const refused = run([editor('t6', { command: 'undo_edit', path: 'a.txt' })], other);
  assert.equal(refused.ok, false);
  assert.match(refused.callResults[0].output, /^No edit history found for a\.txt\./);
  let undo = run([editor('t7', { command: 'undo_edit', path: 'a.txt' })]);
  assert.equal(undo.ok, true);
  assert.equal(host.files.get('a.txt'), 'two\n');
  assert.match(undo.callResults[0].output, /^Last edit to a\.txt undone successfully\./);
  undo = run([editor('t8', { command: 'undo_edit', path: 'a.txt' })]);
  assert.equal(host.files.get('a.txt'), 'one\n');
  assert.equal(session.depth('a.txt'), 0);
  // Undoing a create deletes the file.
  run([editor('t9', { command: 'create', path: 'new.txt', file_text: 'fresh\n' })]);
  assert.equal(host.files.get('new.txt'), 'fresh\n');
  undo = run([editor('t10', { command: 'undo_edit', path: 'new.txt' })]);
  assert.equal(undo.ok, true);
  assert.equal(host.files.has('new.txt'), false);
  assert.deepEqual(undo.filesDeleted, ['new.txt']);
  assert.throws(() => applyToolCallsSync([], host, { session: {} }), /session must be an EditSession/);
});

test('EditSession: several undo_edit calls in one reply go back as many steps, whatever the path spelling', () => {
  const host = mapHost([['a.txt', '0\n']]);
  const session = new EditSession();
  for (let i = 0; i < 25; i++) {
    const r = applyToolCallsSync([editor(`e${i}`, { command: 'str_replace', path: 'a.txt', old_str: `${i}\n`, new_str: `${i + 1}\n` })], host, { session });
    assert.equal(r.ok, true, r.errors.join('\n'));
  }
  assert.equal(session.depth('a.txt'), 20, 'the session keeps the last 20');
  const undo = applyToolCallsSync(
    [editor('u1', { command: 'undo_edit', path: 'a.txt' }), editor('u2', { command: 'undo_edit', path: './a.txt' }), editor('u3', { command: 'undo_edit', path: 'a.txt' })],
    host,
    { session },
  );
  assert.equal(undo.ok, true, undo.errors.join('\n'));
  assert.equal(host.files.get('a.txt'), '22\n');
  assert.equal(session.depth('a.txt'), 17);
  // Down to the oldest text kept, then no further.
  const all = Array.from({ length: 17 }, (_, i) => editor(`v${i}`, { command: 'undo_edit', path: 'a.txt' }));
  assert.equal(applyToolCallsSync(all, host, { session }).ok, true);
  assert.equal(host.files.get('a.txt'), '5\n');
  const none = applyToolCallsSync([editor('w', { command: 'undo_edit', path: 'a.txt' })], host, { session });
  assert.match(none.callResults[0].output, /^No edit history found for a\.txt\./);
});

test('EditSession: undo_edit refuses (file-changed) when another writer changed the file since the edit', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-undo-changed-'));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  const host = nodeHost(dir);
  const session = new EditSession();
  const edit = applyToolCallsSync([editor('t1', { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'two' })], host, { session, stage: false });
  assert.equal(edit.ok, true);
  fs.appendFileSync(path.join(dir, 'a.txt'), 'added by another writer\n');
  const undo = applyToolCallsSync([editor('t2', { command: 'undo_edit', path: 'a.txt' })], host, { session, stage: false });
  assert.equal(undo.ok, false);
  assert.equal(undo.results[0].status, 'failed');
  assert.equal(undo.results[0].errorKind, 'file-changed');
  assert.match(undo.callResults[0].output, /^a\.txt changed after the last edit made through this edit session \(another writer changed it\), so undo_edit would discard that change; nothing was undone\./);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'two\nadded by another writer\n', 'the other writer\'s line is kept');
  assert.equal(session.depth('a.txt'), 1);
});

test('EditSession: undo_edit of a file that became a link leading out of the root fails, and says so', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-undo-link-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-undo-outside-'));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(outside, 'kept.txt'), 'harmless\n');
  const host = nodeHost(dir);
  const session = new EditSession();
  assert.equal(applyToolCallsSync([editor('t1', { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'two' })], host, { session, stage: false }).ok, true);
  fs.rmSync(path.join(dir, 'a.txt'));
  fs.symlinkSync(path.join(outside, 'kept.txt'), path.join(dir, 'a.txt'));
  const undo = applyToolCallsSync([editor('t2', { command: 'undo_edit', path: 'a.txt' })], host, { session, stage: false });
  assert.equal(undo.ok, false);
  // Refused as every path-escape is: not done, and the reply is not written.
  assert.equal(undo.results[0].status, 'skipped');
  assert.equal(undo.results[0].errorKind, 'path-escape');
  assert.equal(undo.callResults[0].ok, false);
  assert.doesNotMatch(undo.callResults[0].output, /undone successfully/);
  assert.equal(fs.readFileSync(path.join(outside, 'kept.txt'), 'utf8'), 'harmless\n');
  assert.equal(fs.readlinkSync(path.join(dir, 'a.txt')), path.join(outside, 'kept.txt'));
});

test('view of a folder through nodeHost.listDir: two levels, hidden entries left out', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-view-'));
  fs.mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, 'README.md'), '# x\n');
  fs.writeFileSync(path.join(dir, '.env'), 'SECRET=1\n');
  fs.writeFileSync(path.join(dir, 'src/app.py'), 'x = 1\n');
  fs.writeFileSync(path.join(dir, 'src/lib/deep.py'), 'y = 2\n');
  const host = nodeHost(dir);
  // The host's own listing leaves out every version-control folder, in any spelling, and only those.
  for (const vcs of ['.hg', '.SVN', '.bzr', '.jj', 'GIT~1']) fs.mkdirSync(path.join(dir, vcs));
  fs.mkdirSync(path.join(dir, '.github'));
  assert.deepEqual(host.listDir('.'), ['.env', '.github/', 'README.md', 'src/']);
  const result = await applyToolCalls([editor('v1', { command: 'view', path: '.' }), editor('v2', { command: 'view', path: 'src' })], host);
  assert.equal(result.ok, true);
  assert.equal(result.callResults[0].output,
    "Here's the files and directories up to 2 levels deep in the project root, excluding hidden items:\nREADME.md\nsrc/\nsrc/app.py\nsrc/lib/\n");
  assert.equal(result.callResults[1].output,
    "Here's the files and directories up to 2 levels deep in src, excluding hidden items:\nsrc/app.py\nsrc/lib/\nsrc/lib/deep.py\n");
  // A link that leads out of the root is neither listed nor read.
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'x\n');
  fs.symlinkSync(outside, path.join(dir, 'out'));
  assert.throws(() => host.listDir('out'), /leads outside the project root/);
  const escaped = await applyToolCalls([editor('v4', { command: 'view', path: 'out' })], host);
  assert.equal(escaped.callResults[0].ok, false);
  assert.ok(!escaped.callResults[0].output.includes('secret.txt'), escaped.callResults[0].output);
  // Without listDir, a folder is a path the editor cannot show.
  const bare = { readFile: (p) => host.readFile(p), writeFile: () => {} };
  const noListing = await applyToolCalls([editor('v3', { command: 'view', path: 'src' })], bare);
  assert.equal(noListing.callResults[0].ok, false);
});

test('Gemini CLI replace: an empty old_string creates a file; a file that exists is refused with the right tool named', () => {
  const host = mapHost([['a.txt', 'one\n']]);
  const created = applyToolCallsSync([{ name: 'replace', args: { file_path: 'new.txt', old_string: '', new_string: 'hello\n' } }], host);
  assert.equal(created.ok, true);
  assert.equal(host.files.get('new.txt'), 'hello\n');
  const exists = applyToolCallsSync([{ name: 'replace', args: { file_path: 'a.txt', old_string: '', new_string: 'x\n' } }], host);
  assert.match(exists.callResults[0].output, /Attempted to create a file that already exists: a\.txt\..*use write_file/);
  assert.equal(host.files.get('a.txt'), 'one\n');
});

test('odd call items are answered or refused, never a trap', () => {
  const host = mapHost([['a.txt', 'one\n']]);
  const deep = [];
  let cur = deep;
  for (let i = 0; i < 200; i++) {
    const next = [];
    cur.push(next);
    cur = next;
  }
  const items = [
    null, undefined, 5, 'text', [], {}, { type: 'tool_use' }, { type: 'tool_use', id: 7, name: 'str_replace_based_edit_tool', input: 'not json' },
    { functionCall: null }, { functionCall: {} }, { functionCall: { name: 'replace', args: null, id: 'x' } },
    { type: 'apply_patch_call', call_id: 'p', operation: 5 }, { type: 'apply_patch_call', call_id: 'p', operation: { type: 'rename_file', path: 'a.txt' } },
    { id: 'c', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' } },
    { type: 'function_call', call_id: 'f', name: 'edit_file', arguments: '{"path": "a.txt", "old_string": "one", "new_string": ' },
    { type: 'tool_use', id: 'd', name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'a.txt', view_range: deep } },
  ];
  for (const item of items) {
    let result;
    try {
      result = applyToolCallsSync([item], host);
    } catch (e) {
      assert.ok(e instanceof TypeError, `${JSON.stringify(item)}: ${e}`);
      continue;
    }
    assert.equal(host.files.get('a.txt'), 'one\n');
    for (const c of result.callResults) assert.equal(typeof c.output, 'string');
    toolResultMessages(result, { api: 'plain' });
  }
  // The module still works afterwards.
  const ok = applyToolCallsSync([{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } }], host);
  assert.equal(ok.ok, true);
});

test('a patch sent through a shell tool: applied from a function_call and a local_shell_call, other commands refused, answered per API', () => {
  const patch = "*** Begin Patch\n*** Update File: button.js\n-export const label = 'Save';\n+export const label = 'Save all';\n*** End Patch\n";
  const host = mapHost([['web/button.js', "export const label = 'Save';\n"], ['app.py', 'x = 1\n']]);
  const output = [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_l1', status: 'completed', action: { type: 'exec', command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}EOF\n`], working_directory: 'web', env: {} } },
    { type: 'function_call', call_id: 'call_s1', name: 'shell', arguments: JSON.stringify({ command: ['apply_patch', '*** Begin Patch\n*** Update File: app.py\n-x = 1\n+x = 2\n*** End Patch\n'] }) },
  ];
  const result = applyToolCallsSync(output, host);
  assert.ok(result.ok, result.errors.join('\n'));
  assert.equal(host.files.get('web/button.js'), "export const label = 'Save all';\n");
  assert.equal(host.files.get('app.py'), 'x = 2\n');
  assert.deepEqual(result.calls.map((c) => c.name), ['local_shell', 'shell']);
  assert.deepEqual(toolResultMessages(result), [
    { type: 'local_shell_call_output', id: 'call_l1', output: 'Updated web/button.js.' },
    { type: 'function_call_output', call_id: 'call_s1', output: 'Updated app.py.' },
  ]);

  // Nothing is run: another command, or apply_patch chained to one, refuses the reply naming it.
  const before = new Map(host.files);
  for (const command of [['rm', '-rf', 'web'], ['bash', '-lc', `apply_patch <<'EOF'\n${patch}EOF\nrm -rf web\n`]]) {
    const refused = applyToolCallsSync([
      { type: 'function_call', call_id: 'call_a', name: 'shell', arguments: JSON.stringify({ command: ['apply_patch', patch], workdir: 'web' }) },
      { type: 'function_call', call_id: 'call_b', name: 'shell', arguments: JSON.stringify({ command }) },
    ], host);
    assert.equal(refused.ok, false);
    assert.match(refused.errors.join('\n'), /^call 2 \(shell\): `(rm -rf web|rm -rf web` follows the heredoc)/m);
    assert.deepEqual(host.files, before);
  }
});

test('a folder view lists through a sync and an async listDir alike; a Promise to the sync call is refused', async () => {
  const tree = { '.': ['b.txt', 'a/', '.hidden'], a: ['z.txt', 'y/'] };
  const view = [editor('v1', { command: 'view', path: '.' })];
  const outputs = [];
  for (const async of [false, true]) {
    const wrap = (f) => (async ? async (...a) => f(...a) : f);
    const host = {
      readFile: wrap(() => null),
      writeFile: wrap(() => {}),
      listDir: wrap((d) => {
        if (!(d in tree)) throw new Error(`no folder ${d}`);
        return tree[d];
      }),
    };
    const result = async ? await applyToolCalls(view, host) : applyToolCallsSync(view, host);
    assert.equal(result.ok, true, result.errors.join('\n'));
    outputs.push(result.callResults[0].output);
  }
  assert.equal(outputs[0], outputs[1]);
  // Two levels, sorted, hidden left out; a folder that cannot be listed is listed bare.
  assert.match(outputs[0], /\na\/\na\/y\/\na\/z\.txt\nb\.txt\n$/);
  const promising = { readFile: () => null, writeFile: () => {}, listDir: async () => ['a.txt'] };
  assert.throws(() => applyToolCallsSync(view, promising), /host\.listDir returned a Promise; use applyToolCalls \(async\) with this host/);
});
