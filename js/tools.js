// Tool-call edits (seed 002): the tools the model sees, and applying the
// calls it makes, all together or not at all.
import {
  toolsSchemas,
  toolsPlan,
  toolsApplySnapshot,
  toolsFileStatus,
  toolsRetryContext,
  toolsSystemPrompt,
} from 'editblocks-raw';
import { drive, isThenable, runAsync, runSync } from './host-driver.js';
import { checkOptions } from './options.js';
import { optionSchema } from './layout.js';
import { LIMITS, describeType, optionalString, plainCopy, requireString } from './boundary.js';

// The diff modes, default first (DIFF_MODES), and the providers' own tool
// sets toolSchemas also takes (PROVIDER_TOOLS): the core's names, written
// into the bundle at build (a browser reads them before init()).
export { DIFF_MODES, PROVIDER_TOOLS } from 'editblocks-tables';

/**
 * The tool definitions for a diff mode (write_file, plus edit_file unless the
 * mode is 'off') or for a provider's own tools ('text_editor',
 * 'text_editor_20250124', 'gemini_cli', 'hashline', 'apply_patch').
 * options.api picks the envelope: 'plain' (default, { name, description,
 * parameters }), 'openai' (Chat Completions), 'openai-responses' (with
 * strict: true and a strict-mode schema), 'anthropic' ({ name, description,
 * input_schema }; the text editor is Anthropic's own versioned entry) or
 * 'gemini' ({ name, description, parametersJsonSchema }).
 * options.maxCharacters sets the Anthropic text editor's max_characters.
 */
export function toolSchemas(diffMode, options) {
  optionalString(diffMode, 'toolSchemas', 'diffMode');
  const checked = checkOptions(options, 'toolSchemas', { api: 'string', maxCharacters: 'count' }) || {};
  const tools = JSON.parse(toolsSchemas(diffMode, checked.api === undefined ? undefined : { api: checked.api }));
  return tools.map((tool) => {
    if (checked.maxCharacters !== undefined && typeof tool.type === 'string' && tool.type.startsWith('text_editor_')) {
      return { ...tool, max_characters: checked.maxCharacters };
    }
    return tool;
  });
}

/**
 * Keeps the history `undo_edit` goes back through: per file, the texts it had
 * before each change made through this session, and a fingerprint of the file
 * as the session last left it (undo_edit refuses when another writer changed
 * it since). One per conversation; pass it as applyToolCalls(calls, host,
 * { session }). Nothing is global.
 *
 * A reply is given only the texts its undo_edit calls may go back to, and
 * hands back only the texts before its own changes: a session costs a call
 * what that call changes, whatever the depth of the history. The texts are
 * kept as they came back (strings are shared, never copied here).
 */
export class EditSession {
  /** path → { texts: the texts before each change, oldest first (null: no file), written: fingerprint } */
  #files = new Map();

  /** How many earlier versions of `path` the session holds. */
  depth(path) {
    requireString(path, 'EditSession.depth', 'path');
    const file = this.#files.get(path);
    return file ? file.texts.length : 0;
  }

  /** Forgets the history of one file, or of every file (no argument). */
  clear(path) {
    if (path === undefined) this.#files.clear();
    else this.#files.delete(requireString(path, 'EditSession.clear', 'path'));
  }

  /**
   * @internal what the core is given: for each of `paths` the session holds,
   * its depth and fingerprint, and as many of its most recent texts as
   * `undoPaths` (one entry per undo_edit call) names it.
   */
  _history(paths, undoPaths) {
    const undos = new Map();
    for (const path of undoPaths) undos.set(path, (undos.get(path) || 0) + 1);
    const entries = [];
    for (const path of paths) {
      const file = this.#files.get(path);
      if (!file) continue;
      const wanted = Math.min(undos.get(path) || 0, file.texts.length);
      entries.push([path, { before: file.texts.slice(file.texts.length - wanted), depth: file.texts.length, written: file.written }]);
    }
    return Object.fromEntries(entries);
  }

  /** @internal carries out what the core decided after a reply was written: per file { undone, pushed, dropOldest, written }. */
  _update(updates) {
    for (const [path, update] of Object.entries(updates || {})) {
      const texts = this.#files.get(path)?.texts ?? [];
      texts.length -= Math.min(update.undone, texts.length);
      for (const text of update.pushed) texts.push(text);
      texts.splice(0, update.dropOldest);
      if (texts.length) this.#files.set(path, { texts, written: update.written });
      else this.#files.delete(path);
    }
  }
}

function splitOptions(rawOptions) {
  if (rawOptions === null || rawOptions === undefined || typeof rawOptions !== 'object' || Array.isArray(rawOptions)) {
    return { options: checkOptions(rawOptions, 'applyToolCalls', optionSchema('applyToolCalls')), session: undefined };
  }
  const { session, ...rest } = rawOptions;
  if (session !== undefined && !(session instanceof EditSession)) {
    throw new TypeError('editblocks: applyToolCalls option session must be an EditSession (new EditSession())');
  }
  return { options: checkOptions(rest, 'applyToolCalls', optionSchema('applyToolCalls')) || {}, session };
}

function plan(given, rawOptions, fn, host) {
  if (!Array.isArray(given)) {
    throw new TypeError(`editblocks: ${fn} expects an array of tool calls (as the SDK returned them, or { name, arguments })`);
  }
  const { options, session } = splitOptions(rawOptions);
  const calls = plainCopy(given, fn, 'calls');
  const coreOptions = { ...(options || {}) };
  // A shell call's absolute workdir is read against the root the model sees:
  // nodeHost's, unless the caller says otherwise.
  if (coreOptions.projectDir === undefined && host && typeof host.root === 'string') coreOptions.projectDir = host.root;
  const { paths, undoPaths, viewPaths } = toolsPlan(calls, coreOptions);
  if (session) coreOptions.history = session._history(paths, undoPaths);
  return {
    calls,
    session,
    dryRun: Boolean(coreOptions.dryRun),
    viewPaths,
    paths,
    atomic: true, // a reply's tool calls are written all or nothing
    run: (files) => toolsApplySnapshot(calls, files, coreOptions),
    coreOptions,
  };
}

const hidden = (name) => name.startsWith('.');
const joinPath = (dir, name) => (dir === '.' ? name : `${dir}/${name}`);

/** What host.listDir gave for `dir` (`null` when it threw); a Promise to a sync call is refused. */
function* listDir(host, dir, sync) {
  let value;
  try {
    value = yield host.listDir(dir);
  } catch {
    return null;
  }
  if (sync && isThenable(value)) throw new TypeError('editblocks: host.listDir returned a Promise; use applyToolCalls (async) with this host');
  return value;
}

/**
 * Lists `dir` two levels deep through host.listDir (entries are names,
 * folders ending in '/'); hidden entries left out. A driver generator, as
 * the host driver's: run by `runSync` or `runAsync`.
 */
function* listing(host, dir, sync) {
  const top = yield* listDir(host, dir, sync);
  if (!Array.isArray(top)) return null;
  const out = [];
  for (const name of top.filter((n) => typeof n === 'string' && !hidden(n)).sort()) {
    const entry = joinPath(dir, name);
    out.push(entry);
    if (name.endsWith('/')) {
      const inner = yield* listDir(host, entry.slice(0, -1), sync);
      if (Array.isArray(inner)) {
        for (const sub of inner.filter((n) => typeof n === 'string' && !hidden(n)).sort()) out.push(entry + sub);
      }
    }
  }
  return out;
}

/**
 * Plans the calls (`makePlan`, run inside: an async call rejects with its
 * error), lists the folders they view, then applies them: one driver for
 * sync and async hosts.
 */
function* applying(host, makePlan, sync) {
  const p = makePlan();
  const listings = {};
  if (host && typeof host.listDir === 'function') {
    for (const dir of p.viewPaths) listings[dir] = yield* listing(host, dir, sync);
  }
  return finish(yield* drive(host, withListings(p, listings), sync), p.calls, p);
}

function withListings(p, listings) {
  const entries = Object.entries(listings).filter(([, list]) => Array.isArray(list));
  if (entries.length) p.coreOptions.listings = Object.fromEntries(entries);
  return p;
}

// Arguments given as JSON text nested deeper than the boundary allows stay text.
function tooDeep(value) {
  const stack = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (depth >= LIMITS.depth) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

// What an item of a model's output is, read the way the core reads it:
// { name, arguments, id } for a call, null for anything else (a message,
// reasoning, a text block or part). Keeps the model's key order.
function callEnvelope(item) {
  if (item === null || typeof item !== 'object') return { name: '', arguments: item ?? null };
  const parse = (args) => {
    if (typeof args !== 'string') return args ?? null;
    try {
      const parsed = JSON.parse(args);
      return tooDeep(parsed) ? args : parsed;
    } catch {
      return args; // kept as sent: the error names it
    }
  };
  const named = (name, args, id) => ({ name: typeof name === 'string' ? name : '', arguments: parse(args), ...(id != null ? { id: String(id) } : {}) });
  switch (item.type) {
    case 'apply_patch_call':
      return named('apply_patch', item.operation, item.call_id ?? item.id);
    case 'local_shell_call':
      return named('local_shell', item.action, item.call_id ?? item.id);
    case 'function_call':
      return named(item.name, item.arguments, item.call_id ?? item.id);
    case 'custom_tool_call':
      return named(item.name, item.input, item.call_id ?? item.id);
    case 'tool_use':
      return named(item.name, item.input, item.id);
    case 'function':
    case 'custom':
    case undefined:
      break;
    default:
      // Not a call for the client: a message, reasoning, text, or a tool the provider runs itself.
      return null;
  }
  const isObject = (v) => v !== null && typeof v === 'object';
  if (isObject(item.custom)) return named(item.custom.name, item.custom.input, item.id);
  if (isObject(item.function)) return named(item.function.name, item.function.arguments, item.id);
  if (isObject(item.functionCall)) return named(item.functionCall.name, item.functionCall.args, item.functionCall.id);
  const isCall = 'name' in item || 'arguments' in item || 'input' in item || 'args' in item;
  if (!isCall && ('text' in item || 'thought' in item || 'functionResponse' in item)) return null;
  return named(item.name, item.arguments ?? item.input ?? item.args, item.call_id ?? item.id);
}

function finish(result, calls, p) {
  result.calls = calls.map(callEnvelope).filter((c) => c !== null);
  const history = result.history;
  delete result.history;
  if (p.session && result.ok && !p.dryRun) p.session._update(history);
  return result;
}

/**
 * Applies a reply's tool calls through an async (or sync) host. `calls` is
 * what the SDK returned: Chat Completions `tool_calls`, a Responses API
 * `output` (function_call, custom_tool_call, apply_patch_call and local_shell_call
 * items; other items are passed over), an Anthropic message's `content` (tool_use
 * blocks), Gemini `functionCalls` or parts, or plain { name, arguments }.
 */
export function applyToolCalls(calls, host, options) {
  return runAsync(applying(host, () => plan(calls, options, 'applyToolCalls', host), false));
}

/** As applyToolCalls, for a host whose methods return values, not Promises. */
export function applyToolCallsSync(calls, host, options) {
  return runSync(applying(host, () => plan(calls, options, 'applyToolCallsSync', host), true));
}

function needId(call, api) {
  if (typeof call.id === 'string' && call.id !== '') return call.id;
  throw new TypeError(
    `editblocks: toolResultMessages: call ${call.callIndex + 1} (${call.name || 'unnamed'}) has no id, and the ${api} API answers a call by its id; pass the calls to applyToolCalls as the SDK returned them`,
  );
}

/**
 * The messages that answer each call of a result, per call id, in the shape
 * the API expects back: 'openai' → one { role: 'tool', tool_call_id, content }
 * per call; 'openai-responses' → function_call_output / custom_tool_call_output /
 * apply_patch_call_output / local_shell_call_output items; 'anthropic' → one user message of
 * tool_result blocks (is_error on failures); 'gemini' → one user content of
 * functionResponse parts ({ output } or { error }); 'plain' → { id, name, ok, output }.
 * Without options.api, the API the calls came from.
 */
export function toolResultMessages(result, options) {
  const checked = checkOptions(options, 'toolResultMessages', { api: 'enum:api' }) || {};
  if (result === null || typeof result !== 'object' || !Array.isArray(result.callResults)) {
    throw new TypeError('editblocks: toolResultMessages expects what applyToolCalls returned');
  }
  const calls = result.callResults;
  const api = checked.api || (calls[0] && calls[0].api) || 'plain';
  switch (api) {
    case 'openai':
      return calls.map((c) => ({ role: 'tool', tool_call_id: needId(c, 'OpenAI Chat Completions'), content: c.output }));
    case 'openai-responses':
      return calls.map((c) => {
        const call_id = needId(c, 'OpenAI Responses');
        if (c.kind === 'apply-patch') return { type: 'apply_patch_call_output', call_id, status: c.ok ? 'completed' : 'failed', output: c.output };
        // The local shell tool's answer names the call by `id` (its call_id).
        if (c.kind === 'local-shell') return { type: 'local_shell_call_output', id: call_id, output: c.output };
        if (c.kind === 'custom') return { type: 'custom_tool_call_output', call_id, output: c.output };
        return { type: 'function_call_output', call_id, output: c.output };
      });
    case 'anthropic':
      if (!calls.length) return [];
      return [{
        role: 'user',
        content: calls.map((c) => ({ type: 'tool_result', tool_use_id: needId(c, 'Anthropic Messages'), content: c.output, ...(c.ok ? {} : { is_error: true }) })),
      }];
    case 'gemini':
      if (!calls.length) return [];
      return [{
        role: 'user',
        parts: calls.map((c) => ({
          functionResponse: { ...(c.id ? { id: c.id } : {}), name: c.name, response: c.ok ? { output: c.output } : { error: c.output } },
        })),
      }];
    default:
      return calls.map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, ok: c.ok, output: c.output }));
  }
}

/** '' | 'M' | 'A' | '~' | '~M' for a file, from its context snapshot, local copy and the model's output. */
export function fileStatus(state) {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) {
    throw new TypeError(`editblocks: fileStatus: state must be an object { context, local, output }, got ${state === null ? 'null' : Array.isArray(state) ? 'an array' : typeof state}`);
  }
  const { context, local, output } = plainCopy(state, 'fileStatus', 'state');
  for (const [key, value] of Object.entries({ context, local, output })) optionalString(value, 'fileStatus', `state.${key}`);
  // An absent (or undefined) local is "not known"; null is "no such file".
  return toolsFileStatus({ context, local, output });
}

/** The @retry_context block to send with the user's next message after a failed reply ('' if nothing failed). */
export function retryContext(result) {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    throw new TypeError(`editblocks: retryContext: result must be what applyToolCalls returned (an object), got ${result === null ? 'null' : Array.isArray(result) ? 'an array' : typeof result}`);
  }
  const copy = plainCopy(result, 'retryContext', 'result');
  for (const key of ['errors', 'calls']) {
    if (copy[key] !== undefined && !Array.isArray(copy[key])) throw new TypeError(`editblocks: retryContext: result.${key} must be an array, got ${describeType(copy[key])}`);
  }
  if (Array.isArray(copy.errors)) copy.errors.forEach((e, i) => requireString(e, 'retryContext', `result.errors[${i}]`));
  const calls = Array.isArray(copy.calls) ? JSON.stringify(copy.calls, null, 2) : undefined;
  return toolsRetryContext(copy, calls);
}

/** The system prompt for one diff mode (systemPrompt('tools') covers every mode). */
export function toolSystemPrompt(diffMode) {
  return toolsSystemPrompt(optionalString(diffMode, 'toolSystemPrompt', 'diffMode'));
}
