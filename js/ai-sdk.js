// editblocks/ai-sdk: the edit tools of js/agent-tools.js as Vercel AI SDK
// tool() definitions. `ai` is the caller's (an optional peer dependency);
// the edits run through the package's applyToolCalls on the caller's host.
import { tool, jsonSchema } from 'ai';
import * as api from '../node/index.mjs';
import { EDIT_TOOLS, runEditTool } from './agent-tools.js';

const OPTIONS = { session: 'object', dryRun: 'boolean', readOnly: 'boolean', allowFolders: 'string[]', tools: 'string[]' };

function checkOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError('editblocks: editTools options must be an object');
  for (const [key, value] of Object.entries(options)) {
    const type = OPTIONS[key];
    if (type === undefined) throw new TypeError(`editblocks: editTools: unknown option ${key} (known: ${Object.keys(OPTIONS).join(', ')})`);
    if (value === undefined) continue;
    const ok = type === 'string[]' ? Array.isArray(value) && value.every((v) => typeof v === 'string') : type === 'object' ? value instanceof api.EditSession : typeof value === type;
    if (!ok) throw new TypeError(`editblocks: editTools option ${key} must be ${type === 'object' ? 'an EditSession' : type === 'string[]' ? 'an array of strings' : `a ${type}`}`);
  }
  for (const name of options.tools || []) {
    if (!EDIT_TOOLS.some((t) => t.name === name)) throw new TypeError(`editblocks: editTools: unknown tool ${name} (the tools are ${EDIT_TOOLS.map((t) => t.name).join(', ')})`);
  }
  return options;
}

/**
 * The edit tools (view, create, str_replace, insert, undo_edit, apply_patch)
 * as AI SDK tools, keyed by name, for generateText / streamText's `tools`.
 * Each executes through `host` (nodeHost(root), or any FileHost) and returns
 * { ok, output, diff }; the model sees the output (the retry text when the
 * edit was refused, as an error) followed by the diff.
 * options: session (an EditSession for undo_edit; one is made when absent),
 * dryRun, readOnly (view only), allowFolders, tools (a subset by name).
 */
export function editTools(host, options) {
  if (host === null || typeof host !== 'object') throw new TypeError('editblocks: editTools expects a host (nodeHost(root), or an object with readFile and writeFile)');
  const checked = checkOptions(options);
  const run = { ...checked, session: checked.session || new api.EditSession() };
  const wanted = checked.tools ? new Set(checked.tools) : null;
  const tools = {};
  for (const t of EDIT_TOOLS) {
    if (wanted && !wanted.has(t.name)) continue;
    if (checked.readOnly && t.writes) continue;
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.inputSchema),
      execute: (input) => runEditTool(api, t.name, input, host, run),
      toModelOutput: ({ output }) => ({
        type: output.ok ? 'text' : 'error-text',
        value: output.diff ? `${output.output}\n\n${output.diff}` : output.output,
      }),
    });
  }
  return tools;
}
