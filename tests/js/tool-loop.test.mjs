// A tool loop per provider, through the provider's real SDK client
// (`openai`, `@anthropic-ai/sdk`, `@google/genai`) talking HTTP to a scripted
// server on localhost: the SDK builds every request and parses every
// response; only the model's answers are scripted. Each loop's first edit
// fails, the answer editblocks builds (with the lines to copy) goes back
// through the SDK, the second edit applies, and the files change on disk in
// a real git repository through nodeHost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { applyToolCalls, toolResultMessages, toolSchemas, nodeHost, EditSession } from '../../pkg/node/index.mjs';

const APP = 'import sys\n\n\ndef total(items):\n    result = 0\n    for item in items:\n        result += item.price\n    return result\n';
const FIXED = 'import sys\n\n\ndef total(items):\n    return sum(item.price for item in items)\n';

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A git repository with app.py committed. */
function repository() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-loop-'));
  fs.writeFileSync(path.join(dir, 'app.py'), APP);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'init');
  return dir;
}

/**
 * An HTTP server answering the n-th request with answers[n](requestBody);
 * every request is kept for the test to inspect.
 */
async function scriptedModel(answers) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const parsed = body ? JSON.parse(body) : null;
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: parsed });
      const answer = answers[requests.length - 1];
      if (!answer) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no scripted answer for request ${requests.length}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(parsed)));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { requests, url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

const read = (dir, file) => fs.readFileSync(path.join(dir, file), 'utf8');

test('Anthropic: the text editor tool through @anthropic-ai/sdk, a refused str_replace, then the corrected one', async () => {
  const dir = repository();
  const wrongIndent = '  result = 0\n  for item in items:\n      result += item.price\n  return result';
  const rightOld = '    result = 0\n    for item in items:\n        result += item.price\n    return result';
  const message = (id, content, stop) => ({
    id, type: 'message', role: 'assistant', model: 'claude-sonnet-5', content, stop_reason: stop, stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  });
  const model = await scriptedModel([
    () => message('msg_1', [
      { type: 'text', text: 'I will use sum().' },
      { type: 'tool_use', id: 'toolu_01', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'app.py', old_str: wrongIndent, new_str: '  return sum(item.price for item in items)' } },
    ], 'tool_use'),
    () => message('msg_2', [
      { type: 'tool_use', id: 'toolu_02', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'app.py', old_str: rightOld, new_str: '    return sum(item.price for item in items)' } },
    ], 'tool_use'),
    () => message('msg_3', [{ type: 'text', text: 'Done.' }], 'end_turn'),
  ]);
  try {
    const client = new Anthropic({ apiKey: 'test-key', baseURL: model.url, maxRetries: 0 });
    const tools = toolSchemas('text_editor', { api: 'anthropic' });
    const messages = [{ role: 'user', content: 'Make total() use sum().' }];
    const host = nodeHost(dir);
    const session = new EditSession();
    const results = [];
    for (let turn = 0; turn < 5; turn++) {
      const reply = await client.messages.create({ model: 'claude-sonnet-5', max_tokens: 1024, tools, messages });
      messages.push({ role: 'assistant', content: reply.content });
      if (reply.stop_reason !== 'tool_use') break;
      const result = await applyToolCalls(reply.content, host, { session, stage: false });
      results.push(result);
      if (!result.ok) assert.equal(read(dir, 'app.py'), APP, 'a refused edit leaves the file as it was');
      messages.push(...toolResultMessages(result));
    }
    assert.equal(model.requests.length, 3);
    assert.equal(model.requests[0].headers.authorization, 'Bearer test-key');
    assert.match(model.requests[0].headers['user-agent'], /^Anthropic\/JS /);
    assert.deepEqual(model.requests[0].body.tools, [{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }]);
    // The refusal went back as the answer to toolu_01, with the current lines to copy.
    const [first] = model.requests[1].body.messages[2].content;
    assert.equal(first.type, 'tool_result');
    assert.equal(first.tool_use_id, 'toolu_01');
    assert.equal(first.is_error, true);
    assert.match(first.content, /^No replacement was performed, old_str `/);
    assert.match(first.content, /did not appear verbatim in app\.py/);
    assert.ok(first.content.includes('     5\t    result = 0\n'), first.content);
    const [second] = model.requests[2].body.messages[4].content;
    assert.equal(second.tool_use_id, 'toolu_02');
    assert.equal(second.is_error, undefined);
    assert.match(second.content, /^The file app\.py has been edited\./);
    assert.deepEqual(results.map((r) => r.ok), [false, true]);
    assert.equal(read(dir, 'app.py'), FIXED);
    // stage: false leaves the written file unstaged (every style stages by default).
    assert.equal(git(dir, 'status', '--porcelain'), ' M app.py\n');
    assert.equal(session.depth('app.py'), 1, 'the session can undo the edit');
  } finally {
    await model.close();
  }
});

test('OpenAI Chat Completions: edit_file through the openai SDK, a refused edit, then the corrected one', async () => {
  const dir = repository();
  const completion = (id, message, finish) => ({
    id, object: 'chat.completion', created: 1, model: 'gpt-5', choices: [{ index: 0, message: { refusal: null, ...message }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  const call = (id, oldString) => ({
    id, type: 'function',
    function: { name: 'edit_file', arguments: JSON.stringify({ edits: [{ path: 'app.py', old_string: oldString, new_string: '    return sum(item.price for item in items)' }] }) },
  });
  const model = await scriptedModel([
    () => completion('c1', { role: 'assistant', content: null, tool_calls: [call('call_1', '    result = 0\n    for item in item_list:\n        result += item.price\n    return result')] }, 'tool_calls'),
    () => completion('c2', { role: 'assistant', content: null, tool_calls: [call('call_2', '    result = 0\n    for item in items:\n        result += item.price\n    return result')] }, 'tool_calls'),
    () => completion('c3', { role: 'assistant', content: 'Done.' }, 'stop'),
  ]);
  try {
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const tools = toolSchemas('search_replace_multi', { api: 'openai' });
    const messages = [{ role: 'user', content: 'Make total() use sum().' }];
    const host = nodeHost(dir);
    for (let turn = 0; turn < 5; turn++) {
      const reply = await client.chat.completions.create({ model: 'gpt-5', messages, tools });
      const message = reply.choices[0].message;
      messages.push(message);
      if (!message.tool_calls || message.tool_calls.length === 0) break;
      const result = await applyToolCalls(message.tool_calls, host, { stage: true });
      if (!result.ok) assert.equal(read(dir, 'app.py'), APP);
      messages.push(...toolResultMessages(result, { api: 'openai' }));
    }
    assert.equal(model.requests.length, 3);
    assert.equal(model.requests[0].headers.authorization, 'Bearer test-key');
    const retry = model.requests[1].body.messages[2];
    assert.equal(retry.role, 'tool');
    assert.equal(retry.tool_call_id, 'call_1');
    assert.match(retry.content, /old_string was not found/);
    assert.match(retry.content, /Line 2 of old_string, `    for item in item_list:`, is not in the file/);
    assert.match(retry.content, /The file's current lines there/);
    assert.ok(retry.content.includes('     6\t    for item in items:\n'), retry.content);
    const done = model.requests[2].body.messages[4];
    assert.deepEqual([done.role, done.tool_call_id], ['tool', 'call_2']);
    assert.equal(read(dir, 'app.py'), FIXED);
    assert.equal(git(dir, 'status', '--porcelain'), 'M  app.py\n', 'stage: true stages the written file');
  } finally {
    await model.close();
  }
});

test('OpenAI Responses: apply_patch_call (create_file, update_file) and function_call items through the openai SDK, answered per call_id', async () => {
  const dir = repository();
  const response = (id, output) => ({
    id, object: 'response', created_at: 1, model: 'gpt-5', status: 'completed', output, error: null, incomplete_details: null,
    instructions: null, metadata: {}, parallel_tool_calls: true, temperature: 1, top_p: 1, tool_choice: 'auto', tools: [],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  });
  const create = (callId) => ({
    type: 'apply_patch_call', id: `apc_${callId}`, call_id: callId, status: 'completed',
    operation: { type: 'create_file', path: 'lib/money.py', diff: '+def cents(x):\n+    return round(x * 100)\n' },
  });
  const edit = (callId, oldString) => ({
    type: 'function_call', id: `fc_${callId}`, call_id: callId, name: 'edit_file', status: 'completed',
    arguments: JSON.stringify({ path: 'app.py', old_string: oldString, new_string: '    return sum(item.price for item in items)', replace_all: null }),
  });
  const model = await scriptedModel([
    () => response('resp_1', [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      create('call_p1'),
      edit('call_f1', '    result = 0\n    for item in items:\n        result += item.cost\n    return result'),
    ]),
    // The second try sends the edit as a V4A update_file instead.
    () => response('resp_2', [create('call_p2'), {
      type: 'apply_patch_call', id: 'apc_u2', call_id: 'call_u2', status: 'completed',
      operation: { type: 'update_file', path: 'app.py', diff: '@@ def total(items):\n-    result = 0\n-    for item in items:\n-        result += item.price\n-    return result\n+    return sum(item.price for item in items)\n' },
    }]),
    () => response('resp_3', [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }]),
  ]);
  try {
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const tools = [...toolSchemas('apply_patch', { api: 'openai-responses' }), ...toolSchemas('search_replace', { api: 'openai-responses' })];
    const host = nodeHost(dir);
    const results = [];
    // The README's loop: each turn continues the previous response with the answers.
    let response = await client.responses.create({ model: 'gpt-5', input: 'Add lib/money.py and make total() use sum().', tools });
    while (response.output.some((item) => item.type === 'function_call' || item.type === 'apply_patch_call')) {
      const result = await applyToolCalls(response.output, host);   // the reasoning item is passed over
      results.push(result);
      if (!result.ok) assert.ok(!fs.existsSync(path.join(dir, 'lib/money.py')), 'nothing of the refused reply was written');
      response = await client.responses.create({ model: 'gpt-5', tools, previous_response_id: response.id, input: toolResultMessages(result) });
    }
    assert.equal(model.requests.length, 3);
    assert.deepEqual(model.requests[0].body.tools.map((t) => [t.type, t.name, t.strict]), [
      ['apply_patch', undefined, undefined], ['function', 'write_file', true], ['function', 'edit_file', true],
    ]);
    assert.equal(model.requests[1].body.previous_response_id, 'resp_1');
    const answers = model.requests[1].body.input;
    assert.deepEqual(answers.map((a) => [a.type, a.call_id, a.status]), [
      ['apply_patch_call_output', 'call_p1', 'failed'],
      ['function_call_output', 'call_f1', undefined],
    ]);
    assert.match(answers[0].output, /Not written: call 2 \(app\.py\) failed, and the reply is applied all or nothing/);
    assert.match(answers[1].output, /old_string was not found/);
    assert.match(answers[1].output, /`        result \+= item\.cost`, is not in the file/);
    const done = model.requests[2].body.input;
    assert.deepEqual(done.map((a) => [a.type, a.call_id, a.status]), [
      ['apply_patch_call_output', 'call_p2', 'completed'],
      ['apply_patch_call_output', 'call_u2', 'completed'],
    ]);
    assert.deepEqual(done.map((a) => a.output), ['Created lib/money.py.', 'Updated app.py.']);
    assert.deepEqual(results.map((r) => r.ok), [false, true]);
    assert.equal(read(dir, 'app.py'), FIXED);
    assert.equal(read(dir, 'lib/money.py'), 'def cents(x):\n    return round(x * 100)\n');
    // Staged by default, like every style (the one set of defaults).
    assert.equal(git(dir, 'status', '--porcelain'), 'M  app.py\nA  lib/money.py\n');
  } finally {
    await model.close();
  }
});

test('Gemini: replace through @google/genai, a count mismatch, then the corrected call', async () => {
  const dir = repository();
  const answer = (parts) => ({
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 }, modelVersion: 'gemini-2.5-pro',
  });
  const model = await scriptedModel([
    () => answer([{ functionCall: { name: 'replace', args: { file_path: 'app.py', old_string: 'item', new_string: 'entry' } } }]),
    () => answer([{ functionCall: { id: 'fc-2', name: 'replace', args: { file_path: 'app.py', old_string: 'item', new_string: 'entry', expected_replacements: 4 } } }]),
    () => answer([{ text: 'Done.' }]),
  ]);
  try {
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: model.url } });
    const config = { tools: [{ functionDeclarations: toolSchemas('gemini_cli', { api: 'gemini' }) }] };
    const contents = [{ role: 'user', parts: [{ text: 'Rename item to entry in total().' }] }];
    const host = nodeHost(dir);
    for (let turn = 0; turn < 5; turn++) {
      const reply = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents, config });
      contents.push(reply.candidates[0].content);
      const calls = reply.functionCalls ?? [];
      if (calls.length === 0) break;
      const result = await applyToolCalls(calls, host);
      if (!result.ok) assert.equal(read(dir, 'app.py'), APP);
      contents.push(...toolResultMessages(result));
    }
    assert.equal(model.requests.length, 3);
    assert.match(model.requests[0].url, /\/models\/gemini-2\.5-pro:generateContent/);
    assert.equal(model.requests[0].headers['x-goog-api-key'], 'test-key');
    assert.deepEqual(model.requests[0].body.tools[0].functionDeclarations.map((d) => d.name), ['replace', 'write_file']);
    const retry = model.requests[1].body.contents[2];
    assert.equal(retry.role, 'user');
    const response = retry.parts[0].functionResponse;
    assert.equal(response.name, 'replace');
    assert.equal(response.id, undefined, 'a call without an id is answered by name');
    assert.match(response.response.error, /^Failed to edit, expected 1 occurrence but found 4 in app\.py \(lines \[4, 6, 6, 7\]\)/);
    assert.match(response.response.error, /set expected_replacements to 4/);
    const done = model.requests[2].body.contents[4].parts[0].functionResponse;
    assert.deepEqual([done.id, done.name], ['fc-2', 'replace']);
    assert.match(done.response.output, /Successfully modified file: app\.py \(4 replacements\)/);
    assert.equal(read(dir, 'app.py'), APP.replaceAll('item', 'entry'));
    assert.equal(git(dir, 'status', '--porcelain'), 'M  app.py\n', 'staged by default, like every style');
  } finally {
    await model.close();
  }
});
