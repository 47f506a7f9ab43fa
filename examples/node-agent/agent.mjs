#!/usr/bin/env node
// A small coding agent: it gives an OpenAI-compatible chat model the
// editblocks tools (write_file, edit_file), applies the calls it makes to a
// folder (all of a turn's changes, or none), and sends back what happened —
// on failure, the retry context that tells the model what to fix.
//
//   OPENAI_API_KEY=… node agent.mjs --root ./my-project "Rename greet to welcome in src/greet.js"
//
// OPENAI_BASE_URL points it at any compatible server (default https://api.openai.com/v1);
// OPENAI_MODEL picks the model (default gpt-4.1).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolSchemas, toolSystemPrompt, applyToolCalls, retryContext, nodeHost } from 'editblocks';

/** Runs the loop until the model answers without tool calls (or maxTurns); returns the transcript. */
export async function runAgent({ task, root, files = [], baseURL = 'https://api.openai.com/v1', apiKey, model = 'gpt-4.1', maxTurns = 6, log = console.log }) {
  const host = nodeHost(root);
  const shown = files.map((f) => `${f}:\n\`\`\`\n${fs.readFileSync(path.join(root, f), 'utf8')}\`\`\``).join('\n\n');
  const messages = [
    { role: 'system', content: toolSystemPrompt('search_replace_multi') },
    { role: 'user', content: shown ? `${task}\n\n${shown}` : task },
  ];
  const tools = toolSchemas('search_replace_multi', { api: 'openai' });
  for (let turn = 1; turn <= maxTurns; turn++) {
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model, messages, tools }),
    });
    if (!response.ok) throw new Error(`the model API answered ${response.status}: ${await response.text()}`);
    const message = (await response.json()).choices[0].message;
    messages.push(message);
    if (!message.tool_calls || message.tool_calls.length === 0) {
      log(`model: ${message.content}`);
      return { turns: turn, messages };
    }
    const result = await applyToolCalls(message.tool_calls, host);
    const outcome = result.ok
      ? `Applied. Modified: ${result.filesModified.join(', ') || 'none'}. Created: ${result.filesCreated.join(', ') || 'none'}.`
      : `Nothing was written.\n${retryContext(result)}`;
    log(`turn ${turn}: ${result.ok ? 'applied' : 'failed'} ${result.results.map((r) => `${r.path} ${r.status}`).join(', ')}`);
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: outcome });
  }
  return { turns: maxTurns, messages };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? args.splice(rootAt, 2)[1] : process.cwd();
  const task = args.join(' ');
  if (!task) {
    console.error('usage: node agent.mjs [--root DIR] "what to change"');
    process.exit(2);
  }
  await runAgent({
    task,
    root,
    baseURL: process.env.OPENAI_BASE_URL || undefined,
    apiKey: process.env.OPENAI_API_KEY,
    model: process.env.OPENAI_MODEL || undefined,
  });
}
