// LINE#ID anchored edits (seed 003): the read view, line IDs and the edit
// call, over any host (sync or Promise-returning) through the host driver.
import {
  hashlineLineId,
  hashlineFormat,
  hashlinePlan,
  hashlineApply,
  hashlineSystemPrompt as rawSystemPrompt,
} from 'editblocks-raw';
import { driveSync, driveAsync } from './host-driver.js';
import { checkOptions } from './options.js';
import { optionSchema } from './layout.js';
import { plainCopy } from './boundary.js';

// The width's range is the core's to check (a RangeError naming the call).
const WIDTH = { width: 'integer' };

function requireString(value, what) {
  if (typeof value !== 'string') throw new TypeError(`editblocks: ${what} must be a string, got ${value === null ? 'null' : typeof value}`);
}

/** The short, deterministic ID of one line's content (trailing whitespace ignored). */
export function lineId(line, options) {
  requireString(line, 'lineId(line)');
  return hashlineLineId(line, checkOptions(options, 'lineId', WIDTH)?.width);
}

/** The read view: one `N#ID|content` line per line, joined by '\n'. */
export function formatHashlines(content, options) {
  requireString(content, 'formatHashlines(content)');
  return hashlineFormat(content, checkOptions(options, 'formatHashlines', { ...WIDTH, startLine: 'count', endLine: 'count' }) ?? {});
}

/** The instructions for the model, for these options (`width`, `allowReplaceText`). */
export function hashlineSystemPrompt(options) {
  return rawSystemPrompt(checkOptions(options, 'hashlineSystemPrompt', { ...WIDTH, allowReplaceText: 'boolean' }) ?? {});
}

function plan(given, options, fn) {
  if (given === null || (typeof given !== 'object' && typeof given !== 'string')) {
    throw new TypeError(`editblocks: ${fn}: the hashline edit call must be an object { path, edits, delete?, rename? } or its JSON text`);
  }
  const opts = checkOptions(options, 'applyHashlineEdit', optionSchema('applyHashlineEdit')) ?? {};
  const call = typeof given === 'string' ? given : plainCopy(given, fn, 'call');
  const [paths, needsDelete] = hashlinePlan(call, opts, fn);
  return { paths, needsDelete, run: (files) => hashlineApply(call, files, opts, fn) };
}

/**
 * Applies one edit call `{ path, edits, delete?, rename? }` through `host`
 * (methods may return Promises). Every operation is checked against one
 * snapshot of the file before anything is written.
 */
export async function applyHashlineEdit(call, host, options) {
  return driveAsync(host, plan(call, options, 'applyHashlineEdit'));
}

/** As applyHashlineEdit, for a synchronous host. */
export function applyHashlineEditSync(call, host, options) {
  return driveSync(host, plan(call, options, 'applyHashlineEditSync'));
}
