// What crosses into the wasm module is checked here first, in JavaScript.
//
// The binding converts objects recursively; a value nested thousands of
// levels deep would overflow the module's stack and trap it. So every
// structured argument (edit blocks, tool calls, hashline calls, results) is
// walked here without recursion and copied into plain data, within limits,
// before the module sees it. The copy also means a getter or a Proxy is read
// exactly once: what was checked is what is converted.

/** The limits on one structured argument. */
export const LIMITS = Object.freeze({
  /** How deep objects and arrays may nest (a tool call needs about 5). */
  depth: 64,
  /** How many values (objects, arrays, strings, numbers, …) in all. */
  nodes: 1_000_000,
  /** How many UTF-16 code units all strings together may hold (512 MiB of text). */
  stringUnits: 256 * 1024 * 1024,
});

const describeType = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && ArrayBuffer.isView(value)) return `a ${value.constructor?.name ?? 'typed array'}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
};

/** `a string` / `an object` / `5` / `null`: how an error names what it got. */
export { describeType };

const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

/** Throws a TypeError unless `value` is a string. */
export function requireString(value, fn, arg) {
  if (typeof value !== 'string') throw new TypeError(`editblocks: ${fn}: ${arg} must be a string, got ${describeType(value)}`);
  return value;
}

/** Throws a TypeError unless `value` is a string, undefined or null. */
export function optionalString(value, fn, arg) {
  if (value != null && typeof value !== 'string') {
    throw new TypeError(`editblocks: ${fn}: ${arg} must be a string or absent, got ${describeType(value)}`);
  }
  return value;
}

/**
 * A plain copy of `value` (objects, arrays, strings, finite or not numbers,
 * booleans, null; `undefined` properties left out), or a TypeError that names
 * the function, the argument, the place inside it and the limit or the type
 * that was wrong. `fn` and `arg` name the call: ('applyToolCalls', 'calls').
 */
export function plainCopy(value, fn, arg, limits = LIMITS) {
  const where = (path) => `${arg}${path}`;
  const fail = (path, what) => new TypeError(`editblocks: ${fn}: ${where(path)} ${what}`);
  let nodes = 0;
  let units = 0;
  // Each entry: the value to copy, where it goes (holder and key), its path and depth.
  const root = { v: undefined };
  const stack = [[value, root, 'v', '', 0]];
  while (stack.length > 0) {
    const [v, holder, slot, path, depth] = stack.pop();
    if (++nodes > limits.nodes) {
      throw fail(path, `holds more than ${limits.nodes} values (the limit on what one call may pass); split the input`);
    }
    switch (typeof v) {
      case 'string':
        units += v.length;
        if (units > limits.stringUnits) {
          throw fail(path, `brings the text in this argument past ${limits.stringUnits} UTF-16 units (the limit on what one call may pass)`);
        }
        holder[slot] = v;
        continue;
      case 'number':
      case 'boolean':
        holder[slot] = v;
        continue;
      case 'undefined':
        continue;
      case 'bigint':
      case 'symbol':
      case 'function':
        throw fail(path, `is ${describeType(v)}; only strings, numbers, booleans, null, arrays and plain objects are accepted`);
      default:
        break;
    }
    if (v === null) {
      holder[slot] = null;
      continue;
    }
    if (depth >= limits.depth) {
      throw fail(path, `is nested more than ${limits.depth} levels deep (the limit on what one call may pass)`);
    }
    let entries;
    let isArray;
    try {
      isArray = Array.isArray(v);
      if (!isArray && ArrayBuffer.isView(v)) {
        throw fail(path, `is ${describeType(v)}; only strings, numbers, booleans, null, arrays and plain objects are accepted`);
      }
      if (isArray) {
        const length = v.length;
        if (length > limits.nodes - nodes) {
          throw fail(path, `holds more than ${limits.nodes} values (the limit on what one call may pass); split the input`);
        }
        entries = new Array(length);
        for (let i = 0; i < length; i++) entries[i] = [i, v[i]];
      } else {
        const keys = Object.keys(v);
        if (keys.length > limits.nodes - nodes) {
          throw fail(path, `holds more than ${limits.nodes} values (the limit on what one call may pass); split the input`);
        }
        entries = keys.map((k) => [k, v[k]]);
      }
    } catch (e) {
      if (e instanceof TypeError && String(e.message).startsWith(`editblocks: ${fn}:`)) throw e;
      // A Proxy trap or a getter threw: say where, keep the cause.
      throw new TypeError(`editblocks: ${fn}: ${where(path)} could not be read: ${e && e.message ? e.message : String(e)}`, { cause: e });
    }
    const copy = isArray ? new Array(entries.length) : {};
    holder[slot] = copy;
    // Pushed in reverse so they are copied in order (only matters for which error comes first).
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i];
      if (!isArray && child === undefined) continue;
      stack.push([child, copy, k, isArray ? `${path}[${k}]` : `${path}${key(k)}`, depth + 1]);
    }
    if (isArray) {
      // Holes and undefined items read as null, as JSON does.
      for (let i = 0; i < copy.length; i++) if (entries[i][1] === undefined) copy[i] = null;
    }
  }
  return root.v;
}

/** plainCopy for an object argument that may be absent (undefined or null stay as they are). */
export function optionalPlainCopy(value, fn, arg, limits = LIMITS) {
  return value == null ? value : plainCopy(value, fn, arg, limits);
}
