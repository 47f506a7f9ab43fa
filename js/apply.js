// Validate and apply edit blocks through a host filesystem.
//
// applyEdits (async hosts) and applyEditsSync (sync hosts) share one code
// path: the core lists the paths it needs, host-driver.js reads them through
// the host, the core runs over that snapshot, and the driver replays the
// writes and the staging request onto the host.
import { EngineApplyPlan, validateEdit as rawValidateEdit, applyToContent as rawApplyToContent, parserInput, parserMemory } from 'editblocks-raw';
import { driveAsync, driveSync } from './host-driver.js';
import { checkOptions } from './options.js';
import { describeType, plainCopy, requireString } from './boundary.js';
import { blockNames } from './parser.js';
import { optionSchema } from './layout.js';

const utf8 = new TextEncoder();

/**
 * Writes `reply` as UTF-8 into the parser's input buffer in wasm memory
 * (lone surrogates as U+FFFD, as TextEncoder.encode gives them); returns
 * the byte length. The core reads it there (bindings/wasm/src/wasm/engine.rs
 * `read_input`): no JavaScript buffer, no copy across the boundary.
 */
function writeReply(reply) {
  const capacity = reply.length * 3;
  const at = parserInput(capacity);
  return utf8.encodeInto(reply, new Uint8Array(parserMemory().buffer, at, capacity)).written;
}

// One EditBlock object, copied within the boundary's limits.
function blockArg(block, fn) {
  if (block === null || typeof block !== 'object' || Array.isArray(block)) {
    throw new TypeError(`editblocks: ${fn}: block must be an edit block object (as parseEdits returns), got ${block === null ? 'null' : Array.isArray(block) ? 'an array' : typeof block}`);
  }
  return checkBlock(plainCopy(block, fn, 'block'), fn, 'block');
}

// An EditBlock's format and patch operation are names the core knows: a
// misspelt operation would otherwise read as a block without one (an update).
function checkBlock(block, fn, arg) {
  if (block === null || typeof block !== 'object' || Array.isArray(block)) return block;
  const { formats, operations } = blockNames();
  const oneOf = (names) => names.map((n) => JSON.stringify(n)).join(', ');
  const got = (v) => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'none' : describeType(v));
  if (!formats.includes(block.format)) {
    throw new TypeError(`editblocks: ${fn}: ${arg}.format must be one of ${oneOf(formats)}, got ${got(block.format)}`);
  }
  if (block.operation != null && !operations.includes(block.operation)) {
    throw new TypeError(`editblocks: ${fn}: ${arg}.operation must be one of ${oneOf(operations)} (or absent), got ${got(block.operation)}`);
  }
  requireString(block.filePath, fn, `${arg}.filePath`);
  for (const field of ['anchor', 'oldLines', 'newLines', 'trailingAnchor', 'rawBlock']) {
    if (block[field] !== undefined) requireString(block[field], fn, `${arg}.${field}`);
  }
  const line = block.lineNumber;
  if (line !== undefined && !(Number.isInteger(line) && line >= 0 && line <= 0xffffffff)) {
    const ErrorClass = Number.isInteger(line) ? RangeError : TypeError;
    throw new ErrorClass(`editblocks: ${fn}: ${arg}.lineNumber must be a whole number from 0 to 4294967295, got ${got(line)}`);
  }
  return block;
}

// The host's files (host.listFiles, e.g. nodeHost's `git ls-files`) as
// options.knownFiles, unless the caller gave them.
function withKnownFiles(listed, options) {
  if (!Array.isArray(listed) || (options !== null && typeof options === 'object' && options.knownFiles !== undefined)) return options;
  return { ...(options ?? {}), knownFiles: listed.filter((f) => typeof f === 'string') };
}
const wantsList = (host, options) => typeof host?.listFiles === 'function' && options?.knownFiles === undefined && (options === undefined || options === null || typeof options === 'object');

/** Checks one block against a file's content: { ok, errorKind?, reason?, estimatedLine?, diagnostics? }. */
export function validateEdit(block, content, options) {
  return rawValidateEdit(blockArg(block, 'validateEdit'), requireString(content, 'validateEdit', 'content'), checkOptions(options, 'validateEdit', optionSchema('applyEdits')));
}

/** Applies one block to a file's content: { content, result }; on failure the content is unchanged. */
export function applyToContent(block, content, options) {
  return rawApplyToContent(blockArg(block, 'applyToContent'), requireString(content, 'applyToContent', 'content'), checkOptions(options, 'applyToContent', optionSchema('applyEdits')));
}

function plan(input, options, fn) {
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw new TypeError(`editblocks: ${fn} needs a reply (string) or an array of EditBlock objects`);
  }
  const checked = checkOptions(options, 'applyEdits', optionSchema('applyEdits'));
  // A reply crosses as UTF-8 written into wasm memory, and its byte length
  // (see read_input in bindings/wasm/src/wasm/engine.rs).
  if (typeof input === 'string') return new EngineApplyPlan(writeReply(input), checked);
  // The blocks also go as JSON text, which the core reads far faster than
  // the objects; a NaN or an Infinity (JSON would make it null) keeps them
  // objects only. The core falls back to the objects when the text does not
  // read, so a bad block is refused as before.
  const report = { nonFinite: false };
  const copy = plainCopy(input, fn, 'blocks', undefined, report);
  copy.forEach((block, i) => checkBlock(block, fn, `blocks[${i}]`));
  const json = report.nonFinite ? undefined : JSON.stringify(copy);
  return new EngineApplyPlan(copy, checked, json);
}

/**
 * Applies a reply (or parsed blocks) through `host`, whose methods may return
 * values or Promises. Resolves to the ApplyResult.
 */
export async function applyEdits(input, host, options) {
  if (wantsList(host, options)) options = withKnownFiles(await host.listFiles(), options);
  const p = plan(input, options, 'applyEdits');
  try {
    return await driveAsync(host, { paths: JSON.parse(p.pathsJson()), needsDelete: p.needsDelete(), run: (files) => p.run(files) });
  } finally {
    p.free();
  }
}

/** As applyEdits, for a host whose methods return plain values. */
export function applyEditsSync(input, host, options) {
  if (wantsList(host, options)) options = withKnownFiles(host.listFiles(), options);
  const p = plan(input, options, 'applyEditsSync');
  try {
    return driveSync(host, { paths: JSON.parse(p.pathsJson()), needsDelete: p.needsDelete(), run: (files) => p.run(files) });
  } finally {
    p.free();
  }
}
