// Wraps the public API around the wasm instance's life:
//
// - Before the module is loaded (a browser that has not called init()), every
//   function throws "call init() (or initSync(bytes)) before using <name>".
// - When a call traps (a WebAssembly.RuntimeError: a bug in the core, or a
//   stack the module could not hold), the instance is poisoned: its stack
//   pointer and allocator are left mid-call. The wrapper makes a fresh
//   instance from the same compiled module and throws a clear Error; the next
//   call works. Objects made on the old instance (an EditStream) then throw a
//   clear error instead of touching the new instance's memory.
//
// The low-level half (dropping the old instance, the generation counter, and
// finalizers that never free an old pointer into the new instance) is added
// to wasm-bindgen's glue by scripts/build.mjs.
import * as raw from 'editblocks-raw';
import {
  __editblocks_ready as glueReady,
  __editblocks_reinstantiate as glueReinstantiate,
  __editblocks_generation as glueGeneration,
} from 'editblocks-raw';

const REPORT = 'please report it with the input that caused it (the README says how, under Security)';
const resetHooks = [];
let resets = 0;

/** Runs `fn` after every re-instantiation (to drop views over the old memory). */
export function onReset(fn) {
  resetHooks.push(fn);
}

/** How many times the module was re-instantiated after a trap. */
export const resetCount = () => resets;

/** The generation of the live instance (grows by one at each reset). */
export const generation = () => glueGeneration();

function notReady(name, cause) {
  return new Error(`editblocks: call init() (or initSync(bytes)) before using ${name}; the wasm module is not loaded yet`, { cause });
}

/** A trap, or a stack overflow inside the module: the instance can no longer be trusted. */
function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /call stack/i.test(String(e.message)));
}

function reset(name, cause) {
  let again = '';
  try {
    glueReinstantiate();
    resets++;
    for (const hook of resetHooks) hook();
  } catch (e) {
    again = ` Making a new instance failed too (${e && e.message ? e.message : e}); reload the page or restart the process.`;
  }
  const err = new Error(
    `editblocks: internal error in ${name} (${cause && cause.message ? cause.message : cause}); the module was reset, ` +
      `so later calls work, but objects made before (an EditStream) cannot be used any more. This is a bug in editblocks: ${REPORT}.${again}`,
    { cause },
  );
  return err;
}

// What a failed call throws: before the module is loaded, the init message
// (whatever went wrong, the missing module is why); after a trap, the reset.
function failure(name, e, wasReady) {
  if (!wasReady && !glueReady()) return notReady(name, e);
  return isTrap(e) ? reset(name, e) : e;
}

/**
 * Calls `fn`, turning a trap into a reset and a clear Error. Functions that
 * never reach the module (nodeHost) work before init().
 */
function guarded(name, fn, self, args) {
  const wasReady = glueReady();
  let out;
  try {
    out = fn.apply(self, args);
  } catch (e) {
    throw failure(name, e, wasReady);
  }
  if (out !== null && typeof out === 'object' && typeof out.then === 'function') {
    return out.then(undefined, (e) => {
      throw failure(name, e, wasReady);
    });
  }
  return out;
}

const isAsync = (f) => f.constructor && f.constructor.name === 'AsyncFunction';
const named = (f, name, length) => {
  Object.defineProperty(f, 'name', { value: name });
  if (length !== undefined) Object.defineProperty(f, 'length', { value: length });
  return f;
};

function guardFunction(name, fn) {
  if (isAsync(fn)) {
    return named(function (...args) {
      try {
        return guarded(name, fn, this, args);
      } catch (e) {
        return Promise.reject(e);
      }
    }, name, fn.length);
  }
  return named(function (...args) {
    return guarded(name, fn, this, args);
  }, name, fn.length);
}

// A class whose objects hold a pointer into the instance: the subclass notes
// the generation it was made in, and its methods refuse to run on a newer one.
function guardClass(name, Base) {
  const Guarded = class extends Base {
    constructor(...args) {
      const wasReady = glueReady();
      const born = glueGeneration();
      try {
        super(...args);
      } catch (e) {
        throw failure(`new ${name}()`, e, wasReady);
      }
      Object.defineProperty(this, '__editblocksGeneration', { value: born });
    }
  };
  named(Guarded, name);
  for (const key of Object.getOwnPropertyNames(Base.prototype)) {
    if (key === 'constructor' || key.startsWith('_')) continue;
    const desc = Object.getOwnPropertyDescriptor(Base.prototype, key);
    if (typeof desc.value !== 'function') continue;
    const method = desc.value;
    const label = `${name}.${key}`;
    Object.defineProperty(Guarded.prototype, key, {
      ...desc,
      value: named(function (...args) {
        // free() on an old object just lets it go (the glue never frees it into the new instance).
        if (key !== 'free' && this instanceof Guarded && this.__editblocksGeneration !== glueGeneration()) {
          throw new Error(
            `editblocks: this ${name} was made before the module was reset after an internal error; ${label}() cannot run on it. Make a new ${name}.`,
          );
        }
        return guarded(label, method, this, args);
      }, key, method.length),
    });
  }
  return Guarded;
}

/** Whether `f` is a class (constructible, with methods of its own). */
const isClass = (f) => /^class[\s{]/.test(Function.prototype.toString.call(f));

/**
 * The public API with every function and class wrapped; `exempt` names are
 * copied as they are (init, initSync: they load the module).
 */
export function guardApi(namespace, exempt = []) {
  const api = {};
  for (const name of Object.keys(namespace).sort()) {
    const value = namespace[name];
    // Error classes are thrown by the library itself: a subclass would break instanceof.
    if (exempt.includes(name) || typeof value !== 'function' || value.prototype instanceof Error) api[name] = value;
    else if (isClass(value)) api[name] = guardClass(name, value);
    else api[name] = guardFunction(name, value);
  }
  // For the tests of this file's promises (tests/js/boundary.test.mjs), not
  // for users: calls a raw binding function through the same guard, so a
  // test can make the module trap for real and watch it come back.
  Object.defineProperty(api, Symbol.for('editblocks.internals'), {
    value: Object.freeze({
      generation,
      resetCount,
      callRaw: guardFunction('an internal call', (name, ...args) => raw[name](...args)),
    }),
  });
  return api;
}
