// What the preview tests in Node (tests/js/preview*.test.mjs) and in Chromium
// (tests/browser/preview*.test.mjs) share: reading the preview fixtures the
// Rust tests read (tests/fixtures/preview*), the few-word states those write,
// and the check that every preview event and state names its file `path`
// with `filePath` as an alias of the same value.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The files under `dir`, by `/`-separated path relative to `base`. */
export function readFiles(dir, base = dir, out = {}) {
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isDirectory()) readFiles(p, base, out);
    else out[path.relative(base, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
  }
  return out;
}

/**
 * The cases of `tests/fixtures/<folder>`, sorted by name: `{ name, dir, files, expected }` and what
 * `read(dir)` adds (the reply, the tool's arguments …). Fails when the folder holds fewer than `least`.
 */
export function fixtureCases(folder, least, read = () => ({})) {
  const dir = path.join(root, 'tests', 'fixtures', folder);
  const names = fs.readdirSync(dir).sort();
  assert.ok(names.length >= least, `tests/fixtures/${folder} looks incomplete: ${names.length} cases`);
  return names.map((name) => {
    const d = path.join(dir, name);
    return {
      name,
      dir: d,
      files: readFiles(path.join(d, 'files')),
      expected: JSON.parse(fs.readFileSync(path.join(d, 'expected.json'), 'utf8')),
      ...read(d),
    };
  });
}

/** A fixture file's text. */
export const readText = (dir, name) => fs.readFileSync(path.join(dir, name), 'utf8');

/** The fixtures' few-word states (tests/all/preview_patch.rs and tests/all/preview_tools.rs write them so). */
export function brief(s) {
  switch (s.state) {
    case 'searching':
      return `searching ${s.count} at [${s.lines.join(', ')}]`;
    case 'located':
      return `located ${s.line}`;
    case 'ambiguous':
      return `ambiguous [${s.lines.join(', ')}]`;
    case 'no-match':
      return `no-match since ${s.since} (${s.errorKind})`;
    default:
      return s.state;
  }
}

/**
 * A preview event or state as the core writes it (fixtures name the file `filePath` only): checks
 * that `path` is there with the same value as its deprecated alias `filePath`, then leaves it out.
 */
export function withoutPathAlias(value, what = 'a preview event or state') {
  if (value === null || typeof value !== 'object' || !('filePath' in value)) {
    assert.ok(value === null || typeof value !== 'object' || !('path' in value), `${what}: path without filePath`);
    return value;
  }
  const { path: p, ...rest } = value;
  assert.equal(typeof p, 'string', `${what}: no path (${JSON.stringify(value)})`);
  assert.equal(p, value.filePath, `${what}: path and filePath differ`);
  return rest;
}

/** A `runToolPreview` result as the fixtures write it, its path alias checked: `{ events, final, content }`. */
export function toolRunAsFixture(r, name) {
  return {
    events: r.events.map((e) => withoutPathAlias(e, `${name}: event`)),
    final: brief(withoutPathAlias(r.state, `${name}: state`)),
    content: r.content,
  };
}

/** A `runPatchPreview` result as the fixtures write it (each event's reply line and path alias checked). */
export function patchRunAsFixture(r, name) {
  return {
    events: r.events.map(({ lineNumber, ...rest }) => {
      assert.equal(typeof lineNumber, 'number', `${name}: an event without its reply line`);
      return withoutPathAlias(rest, `${name}: event`);
    }),
    finals: r.finals.map(([file, state]) => `${file}: ${brief(state)}`),
  };
}
