// Validate and apply edit blocks through a host filesystem.
//
// applyEdits (async hosts) and applyEditsSync (sync hosts) share one code
// path: the core lists the paths it needs, host-driver.js reads them through
// the host, the core runs over that snapshot, and the driver replays the
// writes and the staging request onto the host.
import { EngineApplyPlan, validateEdit, applyToContent } from 'editblocks-raw';
import { driveAsync, driveSync } from './host-driver.js';

export { validateEdit, applyToContent };

function plan(input, options) {
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw new TypeError('editblocks: applyEdits needs a reply (string) or an array of EditBlock objects');
  }
  return new EngineApplyPlan(input, options);
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
