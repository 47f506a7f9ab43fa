// Tool-call edits (seed 002): the tools the model sees, and applying the
// calls it makes, all together or not at all.
import {
  toolsSchemas,
  toolsCallPaths,
  toolsApplySnapshot,
  toolsFileStatus,
  toolsRetryContext,
  toolsSystemPrompt,
} from 'editblocks-raw';
import { driveSync, driveAsync } from './host-driver.js';
import { checkOptions } from './options.js';
import { LIMITS, optionalString, plainCopy } from './boundary.js';

const APPLY_OPTIONS = {
  dryRun: 'boolean',
  stage: 'boolean',
  matching: ['exact', 'tolerant'],
  trailingNewline: ['preserve', 'ensure'],
  allowFolders: 'string[]',
};

/** The diff modes, default first. */
export const DIFF_MODES = Object.freeze(['search_replace_multi', 'search_replace', 'anchored', 'off']);

/**
 * The tool definitions for a diff mode: write_file, plus edit_file unless the
 * mode is 'off'. options.api picks the envelope: 'plain' (default,
 * { name, description, parameters }), 'openai' (Chat Completions),
 * 'openai-responses' or 'anthropic' ({ name, description, input_schema }).
 */
export function toolSchemas(diffMode, options) {
  optionalString(diffMode, 'toolSchemas', 'diffMode');
  return JSON.parse(toolsSchemas(diffMode, checkOptions(options, 'toolSchemas', { api: 'string' })));
}

function plan(given, rawOptions, fn) {
  if (!Array.isArray(given)) {
    throw new TypeError(`editblocks: ${fn} expects an array of { name, arguments } calls`);
  }
  const options = checkOptions(rawOptions, 'applyToolCalls', APPLY_OPTIONS);
  const calls = plainCopy(given, fn, 'calls');
  return {
    calls,
    paths: toolsCallPaths(calls, options),
    atomic: true, // a reply's tool calls are written all or nothing
    run: (files) => toolsApplySnapshot(calls, files, options),
  };
}

// The calls as the model sent them, { name, arguments } with string arguments
// parsed, keeping the model's key order (the core's copy sorts keys). Same
// envelopes as the core reads: {function: {...}}, {input}, {args}. Arguments
// given as JSON text nested deeper than the boundary allows stay text.
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

function echoCalls(calls) {
  return calls.map((call) => {
    const inner = call && typeof call.function === 'object' && call.function !== null ? call.function : call || {};
    let args = inner.arguments ?? inner.input ?? inner.args ?? null;
    if (typeof args === 'string') {
      try {
        const parsed = JSON.parse(args);
        if (!tooDeep(parsed)) args = parsed;
      } catch {
        // kept as sent: the error names it
      }
    }
    return { name: typeof inner.name === 'string' ? inner.name : '', arguments: args };
  });
}

function withEcho(result, calls) {
  result.calls = echoCalls(calls);
  return result;
}

/** Applies a reply's tool calls through an async (or sync) host. */
export async function applyToolCalls(calls, host, options) {
  const p = plan(calls, options, 'applyToolCalls');
  return withEcho(await driveAsync(host, p), p.calls);
}

/** As applyToolCalls, for a host whose methods return values, not Promises. */
export function applyToolCallsSync(calls, host, options) {
  const p = plan(calls, options, 'applyToolCallsSync');
  return withEcho(driveSync(host, p), p.calls);
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
  const calls = Array.isArray(copy.calls) ? JSON.stringify(copy.calls, null, 2) : undefined;
  return toolsRetryContext(copy, calls);
}

/** The system prompt for one diff mode (systemPrompt('tools') covers every mode). */
export function toolSystemPrompt(diffMode) {
  return toolsSystemPrompt(optionalString(diffMode, 'toolSystemPrompt', 'diffMode'));
}
