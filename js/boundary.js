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
  /** How many values (objects, arrays, strings, numbers, …) in all (16 Mi: a million results pass). */
  nodes: 16 * 1024 * 1024,
  /** How many UTF-16 code units all strings together may hold (512 MiB of text). */
  stringUnits: 256 * 1024 * 1024,
});

/** `a string` / `an object` / `5` / `null`: how an error names what it got. */
export const describeType = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && ArrayBuffer.isView(value)) return `a ${value.constructor?.name ?? 'typed array'}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
};

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

const OWN = Symbol('editblocks.boundary');
const ACCEPTED = 'only strings, numbers, booleans, null, arrays and plain objects are accepted';

/**
 * A plain copy of `value` (objects, arrays, strings, numbers, booleans,
 * null; `undefined` properties left out, `undefined` array items as null,
 * as JSON does), or a TypeError that names the function, the argument, the
 * place inside it and the limit or the type that was wrong. `fn` and `arg`
 * name the call: ('applyToolCalls', 'calls'). When `report` is given,
 * `report.nonFinite` is set when the copy holds NaN or ±Infinity (which
 * JSON.stringify would turn into null).
 *
 * An explicit stack, not recursion; leaves are copied in place and only
 * objects and arrays are pushed. Paths are kept as parent links (one entry
 * per container) and spelt out only for an error.
 */
export function plainCopy(value, fn, arg, limits = LIMITS, report = undefined) {
  // Containers seen so far: the container each sits in, and its key there.
  const parentOf = [];
  const keyOf = [];
  const pathOf = (container, key) => {
    const keys = key === undefined ? [] : [key];
    for (let c = container; c >= 0 && keyOf[c] !== null; c = parentOf[c]) keys.push(keyOf[c]);
    let out = arg;
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      out += typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
    }
    return out;
  };
  const fail = (container, key, what) => {
    const e = new TypeError(`editblocks: ${fn}: ${pathOf(container, key)} ${what}`);
    e[OWN] = true;
    return e;
  };
  const tooMany = (container, key) => fail(container, key, `holds more than ${limits.nodes} values (the limit on what one call may pass); split the input`);
  let nodes = 0;
  let units = 0;
  // A leaf's copy, or undefined for a container (pushed by the caller).
  const leaf = (v, container, key) => {
    switch (typeof v) {
      case 'string':
        units += v.length;
        if (units > limits.stringUnits) {
          throw fail(container, key, `brings the text in this argument past ${limits.stringUnits} UTF-16 units (the limit on what one call may pass)`);
        }
        return v;
      case 'number':
        if (report !== undefined && !Number.isFinite(v)) report.nonFinite = true;
        return v;
      case 'boolean':
        return v;
      case 'bigint':
      case 'symbol':
      case 'function':
        throw fail(container, key, `is ${describeType(v)}; ${ACCEPTED}`);
      default:
        return v === null ? null : undefined;
    }
  };
  if (++nodes > limits.nodes) throw tooMany(-1);
  if (value === undefined) return undefined;
  const top = leaf(value, -1, undefined);
  if (top !== undefined) return top;

  // The stack: value, the copy's holder and slot, the container index of the holder, depth.
  const values = [value];
  const holders = [null];
  const slots = [null];
  const parents = [-1];
  const depths = [0];
  let result;
  while (values.length > 0) {
    const v = values.pop();
    const holder = holders.pop();
    const slot = slots.pop();
    const parent = parents.pop();
    const depth = depths.pop();
    // This container's index, for the paths of what it holds.
    const self = parentOf.length;
    parentOf.push(parent);
    keyOf.push(slot);
    if (depth >= limits.depth) {
      throw fail(parent, slot ?? undefined, `is nested more than ${limits.depth} levels deep (the limit on what one call may pass)`);
    }
    const here = self;
    let copy;
    try {
      if (Array.isArray(v)) {
        const length = v.length;
        if (length > limits.nodes - nodes) throw tooMany(here);
        copy = new Array(length);
        for (let i = 0; i < length; i++) {
          nodes++;
          const child = v[i];
          const c = leaf(child, here, i);
          if (c !== undefined) copy[i] = c;
          else if (child === undefined) copy[i] = null;
          else {
            values.push(child);
            holders.push(copy);
            slots.push(i);
            parents.push(here);
            depths.push(depth + 1);
          }
        }
      } else {
        if (ArrayBuffer.isView(v)) throw fail(parent, slot ?? undefined, `is ${describeType(v)}; ${ACCEPTED}`);
        const keys = Object.keys(v);
        if (keys.length > limits.nodes - nodes) throw tooMany(here);
        copy = {};
        for (let i = 0; i < keys.length; i++) {
          nodes++;
          const k = keys[i];
          const child = v[k];
          if (child === undefined) continue;
          const c = leaf(child, here, k);
          // A container's slot is taken now (filled when it is copied), so keys keep their order.
          copy[k] = c === undefined ? null : c;
          if (c === undefined) {
            values.push(child);
            holders.push(copy);
            slots.push(k);
            parents.push(here);
            depths.push(depth + 1);
          }
        }
      }
    } catch (e) {
      if (e && e[OWN]) throw e;
      // A Proxy trap or a getter threw: say where, keep the cause.
      throw new TypeError(`editblocks: ${fn}: ${pathOf(parent, slot ?? undefined)} could not be read: ${e && e.message ? e.message : String(e)}`, { cause: e });
    }
    if (holder === null) result = copy;
    else holder[slot] = copy;
  }
  return result;
}
