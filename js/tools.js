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

const APPLY_OPTIONS = { dryRun: 'boolean', stage: 'boolean', matching: ['exact', 'tolerant'], trailingNewline: ['preserve', 'ensure'] };

/** The diff modes, default first. */
export const DIFF_MODES = Object.freeze(['search_replace_multi', 'search_replace', 'anchored', 'off']);

/**
 * The tool definitions for a diff mode: write_file, plus edit_file unless the
 * mode is 'off'. options.api picks the envelope: 'plain' (default,
 * { name, description, parameters }), 'openai' (Chat Completions),
 * 'openai-responses' or 'anthropic' ({ name, description, input_schema }).
 */
export function toolSchemas(diffMode, options) {
  return JSON.parse(toolsSchemas(diffMode, checkOptions(options, 'toolSchemas', { api: 'string' })));
}

function plan(calls, rawOptions) {
  if (!Array.isArray(calls)) {
    throw new TypeError('editblocks: applyToolCalls expects an array of { name, arguments } calls');
  }
  const options = checkOptions(rawOptions, 'applyToolCalls', APPLY_OPTIONS);
  return {
    paths: toolsCallPaths(calls),
    run: (files) => toolsApplySnapshot(calls, files, options),
  };
}

// The calls as the model sent them, { name, arguments } with string arguments
// parsed, keeping the model's key order (the core's copy sorts keys). Same
// envelopes as the core reads: {function: {...}}, {input}, {args}.
function echoCalls(calls) {
  return calls.map((call) => {
    const inner = call && typeof call.function === 'object' && call.function !== null ? call.function : call || {};
    let args = inner.arguments ?? inner.input ?? inner.args ?? null;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
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
  return withEcho(await driveAsync(host, plan(calls, options)), calls);
}

/** As applyToolCalls, for a host whose methods return values, not Promises. */
export function applyToolCallsSync(calls, host, options) {
  return withEcho(driveSync(host, plan(calls, options)), calls);
}

/** '' | 'M' | 'A' | '~' | '~M' for a file, from its context snapshot, local copy and the model's output. */
export function fileStatus(state) {
  return toolsFileStatus(state);
}

/** The @retry_context block to send with the user's next message after a failed reply ('' if nothing failed). */
export function retryContext(result) {
  const calls = result && Array.isArray(result.calls) ? JSON.stringify(result.calls, null, 2) : undefined;
  return toolsRetryContext(result, calls);
}

/** The system prompt for one diff mode (systemPrompt('tools') covers every mode). */
export function toolSystemPrompt(diffMode) {
  return toolsSystemPrompt(diffMode);
}
