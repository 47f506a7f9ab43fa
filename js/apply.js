// Validate and apply edit blocks through a host filesystem.
//
// applyEdits (async hosts) and applyEditsSync (sync hosts) share one code
// path: the core lists the paths it needs, host-driver.js reads them through
// the host, the core runs over that snapshot, and the driver replays the
// writes and the staging request onto the host.
import { EngineApplyPlan, validateEdit as rawValidateEdit, applyToContent as rawApplyToContent } from 'editblocks-raw';
import { driveAsync, driveSync } from './host-driver.js';

const OPTION_NAMES = ['dryRun', 'stage', 'mode', 'matching', 'inContext', 'trailingNewline', 'overwrite', 'formats'];

// The binding reads only the fields it knows; a misspelt option would be
// silently ignored, so name it here.
function checkOptions(options, fn) {
  if (options == null) return options;
  if (typeof options !== 'object') throw new TypeError(`editblocks: ${fn} options must be an object`);
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new TypeError(`editblocks: invalid apply options: unknown option ${JSON.stringify(key)} for ${fn}; known options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  return options;
}

/** Checks one block against a file's content: { ok, errorKind?, reason?, estimatedLine?, diagnostics? }. */
export function validateEdit(block, content, options) {
  return rawValidateEdit(block, content, checkOptions(options, 'validateEdit'));
}

/** Applies one block to a file's content: { content, result }; on failure the content is unchanged. */
export function applyToContent(block, content, options) {
  return rawApplyToContent(block, content, checkOptions(options, 'applyToContent'));
}

function plan(input, options) {
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw new TypeError('editblocks: applyEdits needs a reply (string) or an array of EditBlock objects');
  }
  return new EngineApplyPlan(input, checkOptions(options, 'applyEdits'));
}

/**
 * Applies a reply (or parsed blocks) through `host`, whose methods may return
 * values or Promises. Resolves to the ApplyResult.
 */
export async function applyEdits(input, host, options) {
  const p = plan(input, options);
  try {
    return await driveAsync(host, { paths: p.paths(), run: (files) => p.run(files) });
  } finally {
    p.free();
  }
}

/** As applyEdits, for a host whose methods return plain values. */
export function applyEditsSync(input, host, options) {
  const p = plan(input, options);
  try {
    return driveSync(host, { paths: p.paths(), run: (files) => p.run(files) });
  } finally {
    p.free();
  }
}
