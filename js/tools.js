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

/** The diff modes, default first. */
export const DIFF_MODES = Object.freeze(['search_replace_multi', 'search_replace', 'anchored', 'off']);

/**
 * The tool definitions for a diff mode: write_file, plus edit_file unless the
 * mode is 'off'. options.api picks the envelope: 'plain' (default,
 * { name, description, parameters }), 'openai' (Chat Completions),
 * 'openai-responses' or 'anthropic' ({ name, description, input_schema }).
 */
export function toolSchemas(diffMode, options) {
  return toolsSchemas(diffMode, options);
}

function plan(calls, options) {
  if (!Array.isArray(calls)) {
    throw new TypeError('editblocks: applyToolCalls expects an array of { name, arguments } calls');
  }
  return {
    paths: toolsCallPaths(calls),
    run: (files) => toolsApplySnapshot(calls, files, options),
  };
}

/** Applies a reply's tool calls through an async (or sync) host. */
export async function applyToolCalls(calls, host, options) {
  return driveAsync(host, plan(calls, options));
}

/** As applyToolCalls, for a host whose methods return values, not Promises. */
export function applyToolCallsSync(calls, host, options) {
  return driveSync(host, plan(calls, options));
}

/** '' | 'M' | 'A' | '~' | '~M' for a file, from its context snapshot, local copy and the model's output. */
export function fileStatus(state) {
  return toolsFileStatus(state);
}

/** The @retry_context block to send with the user's next message after a failed reply ('' if nothing failed). */
export function retryContext(result) {
  return toolsRetryContext(result);
}

/** The system prompt for one diff mode (systemPrompt('tools') covers every mode). */
export function toolSystemPrompt(diffMode) {
  return toolsSystemPrompt(diffMode);
}
