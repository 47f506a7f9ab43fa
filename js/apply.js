// Validate and apply edit blocks through a host filesystem.
//
// applyEdits (async hosts) and applyEditsSync (sync hosts) share one code
// path: the core lists the paths it needs, host-driver.js reads them through
// the host, the core runs over that snapshot, and the driver replays the
// writes and the staging request onto the host.
import { EngineApplyPlan, validateEdit as rawValidateEdit, applyToContent as rawApplyToContent } from 'editblocks-raw';
import { driveAsync, driveSync } from './host-driver.js';
import { checkOptions } from './options.js';

const APPLY_OPTIONS = {
  dryRun: 'boolean',
  stage: 'boolean',
  mode: ['sequential', 'atomic'],
  matching: ['exact', 'tolerant'],
  inContext: 'string[]',
  trailingNewline: ['preserve', 'ensure'],
  overwrite: 'boolean',
  formats: 'string[]',
};

/** Checks one block against a file's content: { ok, errorKind?, reason?, estimatedLine?, diagnostics? }. */
export function validateEdit(block, content, options) {
  return rawValidateEdit(block, content, checkOptions(options, 'validateEdit', APPLY_OPTIONS));
}

/** Applies one block to a file's content: { content, result }; on failure the content is unchanged. */
export function applyToContent(block, content, options) {
  return rawApplyToContent(block, content, checkOptions(options, 'applyToContent', APPLY_OPTIONS));
}

function plan(input, options) {
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw new TypeError('editblocks: applyEdits needs a reply (string) or an array of EditBlock objects');
  }
  return new EngineApplyPlan(input, checkOptions(options, 'applyEdits', APPLY_OPTIONS));
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
