// LINE#ID anchored edits (seed 003): the read view, line IDs and the edit
// call, over any host (sync or Promise-returning) through the host driver.
import {
  hashlineLineId,
  hashlineFormat,
  hashlinePaths,
  hashlineApply,
  hashlineSystemPrompt as rawSystemPrompt,
} from 'editblocks-raw';
import { driveSync, driveAsync } from './host-driver.js';
import { checkOptions } from './options.js';
import { optionSchema } from './layout.js';
import { plainCopy } from './boundary.js';

const WIDTH = { width: 'integer' };
// Every option object that takes a width checks its range here, naming the call.
function withWidth(checked, fn) {
  const width = checked?.width;
  if (width !== undefined && !(width >= 1 && width <= 12)) throw new RangeError(`editblocks: ${fn} width must be an integer from 1 to 12, got ${width}`);
  return checked;
}

function requireString(value, what) {
  if (typeof value !== 'string') throw new TypeError(`editblocks: ${what} must be a string, got ${value === null ? 'null' : typeof value}`);
}

/** The short, deterministic ID of one line's content (trailing whitespace ignored). */
export function lineId(line, options) {
  requireString(line, 'lineId(line)');
  return hashlineLineId(line, withWidth(checkOptions(options, 'lineId', WIDTH), 'lineId')?.width);
}

/** The read view: one `N#ID|content` line per line, joined by '\n'. */
export function formatHashlines(content, options) {
  requireString(content, 'formatHashlines(content)');
  return hashlineFormat(content, withWidth(checkOptions(options, 'formatHashlines', { ...WIDTH, startLine: 'count', endLine: 'count' }), 'formatHashlines') ?? {});
}

/** The instructions for the model, for these options (`width`, `allowReplaceText`). */
export function hashlineSystemPrompt(options) {
  return rawSystemPrompt(withWidth(checkOptions(options, 'hashlineSystemPrompt', { ...WIDTH, allowReplaceText: 'boolean' }), 'hashlineSystemPrompt') ?? {});
}

function wantsDelete(call, options) {
  if (options && options.dryRun) return false;
  let parsed = call;
  if (typeof call === 'string') {
    try {
      parsed = JSON.parse(call);
    } catch {
      return false; // the core refuses it without touching the host
    }
  }
  return !!(parsed && typeof parsed === 'object' && (parsed.delete === true || (typeof parsed.rename === 'string' && parsed.rename.trim() !== '')));
}

function plan(given, options, fn) {
  if (given === null || (typeof given !== 'object' && typeof given !== 'string')) {
    throw new TypeError(`editblocks: ${fn}: the hashline edit call must be an object { path, edits, delete?, rename? } or its JSON text`);
  }
  const opts = withWidth(checkOptions(options, 'applyHashlineEdit', optionSchema('applyHashlineEdit')), fn) ?? {};
  const call = typeof given === 'string' ? given : plainCopy(given, fn, 'call');
  return {
    paths: hashlinePaths(call, opts),
    needsDelete: wantsDelete(call, opts),
    run: (files) => hashlineApply(call, files, opts),
  };
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
