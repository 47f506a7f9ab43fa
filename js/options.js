// Checks an options object at the boundary, so misuse is a JS error that
// names the option. The binding reads only the fields it knows: without this
// a misspelt option (`dry_run`) would be ignored and a dry run would write.
// (A namespace: editblocks/lite, which shares this module, binds no allowFolderProblem and
// takes no allowFolders.)
import * as raw from 'editblocks-raw';
import { optionNames } from './layout.js';

const camel = (key) => key.replace(/[_-]([a-z])/g, (_, c) => c.toUpperCase());

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

const TYPES = {
  boolean: { test: (v) => typeof v === 'boolean', expected: 'a boolean' },
  string: { test: (v) => typeof v === 'string', expected: 'a string' },
  integer: { test: (v) => Number.isInteger(v), expected: 'a whole number' },
  // A count or size: a whole number from 0 (a negative one is a RangeError).
  count: { test: (v) => Number.isSafeInteger(v) && v >= 0, expected: 'a whole number from 0', range: (v) => Number.isInteger(v) },
  number: { test: (v) => typeof v === 'number', expected: 'a number' },
  any: { test: () => true, expected: 'anything' },
  'string[]': { test: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), expected: 'an array of strings' },
  // Folders named exactly, as allowFolders takes them: the core says which entry names none.
  'folder[]': { test: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), expected: 'an array of strings' },
};

/**
 * `spec` maps each option name to what it takes: 'boolean', 'string',
 * 'integer', 'count' (a whole number from 0), 'number', 'string[]', 'folder[]', an array of allowed strings,
 * or 'enum:NAME' for the names the core gives for NAME (js/layout.js optionNames: 'enum:mode', 'enum:theme', …).
 * Returns a copy without the keys whose value is undefined (as if they were not given).
 */
export function checkOptions(options, fn, spec) {
  if (options === null || options === undefined) return undefined;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`editblocks: ${fn} options must be an object, got ${describe(options)}`);
  }
  const names = Object.keys(spec);
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    if (!Object.prototype.hasOwnProperty.call(spec, key)) {
      const hint = names.includes(camel(key)) ? `; did you mean ${camel(key)}?` : `; known options are ${names.join(', ')}`;
      throw new TypeError(`editblocks: unknown option ${JSON.stringify(key)} for ${fn}${hint}`);
    }
    if (value === undefined) continue;
    const want = typeof spec[key] === 'string' && spec[key].startsWith('enum:') ? optionNames()[spec[key].slice(5)] : spec[key];
    const ok = Array.isArray(want) ? want.includes(value) : TYPES[want].test(value);
    if (!ok) {
      const expected = Array.isArray(want) ? `one of ${want.map((w) => JSON.stringify(w)).join(', ')}` : TYPES[want].expected;
      const ErrorClass = !Array.isArray(want) && TYPES[want].range?.(value) ? RangeError : TypeError;
      throw new ErrorClass(`editblocks: ${fn} option ${key} must be ${expected}, got ${describe(value)}`);
    }
    if (want === 'folder[]') {
      for (const entry of value) {
        const problem = raw.allowFolderProblem(entry);
        if (problem) throw new RangeError(`editblocks: ${fn} option ${key}: ${problem}`);
      }
    }
    out[key] = value;
  }
  return out;
}
