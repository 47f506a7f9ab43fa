// The edit tools an agent framework offers a model, one tool per command of
// Anthropic's text editor (view, create, str_replace, insert, undo_edit) and
// OpenAI's V4A apply_patch. Each call is handed to applyToolCalls as the
// provider tool it mirrors, so locating, refusals, line endings, atomic
// writes and their wording are the core's; this module only names the tools,
// describes their arguments and adds the core's unified diff of what changed.
// js/mcp.js (the MCP server) and js/ai-sdk.js (AI SDK tools) are built on it.

const TEXT_EDITOR = 'str_replace_based_edit_tool';

const path = { type: 'string', description: 'Path relative to the project root, e.g. src/app.py.' };

/** The tools: name, description, JSON schema of the input, whether it writes. */
export const EDIT_TOOLS = Object.freeze([
  {
    name: 'view',
    writes: false,
    description: 'Show a file with line numbers (`cat -n`), or list a folder two levels deep (hidden entries left out). Read a file before editing it: str_replace needs its text exactly.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { ...path, description: 'File or folder path relative to the project root; "." is the root.' },
        view_range: {
          type: 'array',
          items: { type: 'integer' },
          minItems: 2,
          maxItems: 2,
          description: 'Optional [first, last] lines to show, 1-based; last -1 means to the end of the file.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'create',
    writes: true,
    description: 'Create a new file with the given content. Refused when the file already exists: edit it with str_replace or insert instead.',
    inputSchema: {
      type: 'object',
      properties: {
        path,
        file_text: { type: 'string', description: 'The whole content of the new file.' },
      },
      required: ['path', 'file_text'],
      additionalProperties: false,
    },
  },
  {
    name: 'str_replace',
    writes: true,
    description: 'Replace text in a file. old_str must occur exactly once, copied from the file character for character (whitespace included, line numbers left out); when it occurs more than once or not at all nothing is written and the answer shows the candidates or the current lines to copy from.',
    inputSchema: {
      type: 'object',
      properties: {
        path,
        old_str: { type: 'string', description: 'The exact text to replace; it must occur exactly once in the file. Include neighbouring lines to make it unique.' },
        new_str: { type: 'string', description: 'The text that replaces old_str (empty or absent deletes it).' },
      },
      required: ['path', 'old_str'],
      additionalProperties: false,
    },
  },
  {
    name: 'insert',
    writes: true,
    description: 'Insert text after a line of a file (0 inserts at the top).',
    inputSchema: {
      type: 'object',
      properties: {
        path,
        insert_line: { type: 'integer', minimum: 0, description: 'The line after which new_str goes; 0 inserts at the top.' },
        new_str: { type: 'string', description: 'The text to insert.' },
      },
      required: ['path', 'insert_line', 'new_str'],
      additionalProperties: false,
    },
  },
  {
    name: 'undo_edit',
    writes: true,
    description: 'Undo the last edit made to a file through these tools in this session.',
    inputSchema: {
      type: 'object',
      properties: { path },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'apply_patch',
    writes: true,
    description: 'Apply a V4A patch: "*** Begin Patch", then for each file "*** Add File: path" (every line +), "*** Delete File: path" or "*** Update File: path" (optionally "*** Move to: path") with @@ sections of \' \' context, \'-\' removed and \'+\' added lines copied exactly from the file, then "*** End Patch". All files are written or none.',
    inputSchema: {
      type: 'object',
      properties: {
        patch: { type: 'string', description: 'The whole patch text, from *** Begin Patch to *** End Patch.' },
      },
      required: ['patch'],
      additionalProperties: false,
    },
  },
]);

const BY_NAME = new Map(EDIT_TOOLS.map((t) => [t.name, t]));

/** The call applyToolCalls reads for one tool's input: the provider tool it mirrors. */
function providerCall(name, input) {
  const args = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {};
  // The patch goes where Codex sends it, a shell call of ['apply_patch', patch]: the
  // core reads the whole V4A text there (nothing is ever run).
  if (name === 'apply_patch') return { name: 'shell', id: 'call', arguments: { command: ['apply_patch', args.patch] } };
  return { name: TEXT_EDITOR, id: 'call', arguments: { ...args, command: name } };
}

/**
 * Runs one tool through `host` with applyToolCalls. Returns { ok, output, diff }:
 * output is the core's answer in the wording of the provider tool (the retry
 * text on a refusal), diff the unified diff of every file changed ('' when
 * nothing changed). options: session (an EditSession, for undo_edit),
 * dryRun, allowFolders, readOnly (every tool but view is refused).
 */
export async function runEditTool(api, name, input, host, options = {}) {
  const tool = BY_NAME.get(name);
  if (!tool) return { ok: false, output: `Unknown tool ${JSON.stringify(String(name))}; the tools are ${EDIT_TOOLS.map((t) => t.name).join(', ')}.`, diff: '' };
  if (options.readOnly && tool.writes) {
    return { ok: false, output: `${name} was refused: the project is open read-only, so nothing may be written. Use view to read files.`, diff: '' };
  }
  if (name === 'apply_patch' && typeof input?.patch !== 'string') {
    return { ok: false, output: 'apply_patch needs `patch`: the whole patch text, from *** Begin Patch to *** End Patch, as a string.', diff: '' };
  }
  const applyOptions = { dryRun: Boolean(options.dryRun), stage: false };
  if (options.session) applyOptions.session = options.session;
  if (options.allowFolders && options.allowFolders.length) applyOptions.allowFolders = options.allowFolders;
  const result = await api.applyToolCalls([providerCall(name, input)], host, applyOptions);
  const answers = result.callResults.map((c) => c.output).filter(Boolean);
  const ok = result.ok && result.callResults.every((c) => c.ok);
  const output = answers.length ? answers.join('\n') : (ok ? 'Done.' : 'The call was refused.');
  const diff = ok ? (result.fileChanges || []).map((c) => api.unifiedDiff(c)).join('') : '';
  return { ok, output: options.dryRun && ok && tool.writes ? `Dry run: nothing was written. ${output}` : output, diff };
}
