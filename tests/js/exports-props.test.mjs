// Every export of the built package, called with a value of every JS type in
// every argument position: a wrong value is a TypeError (or an Error) that
// names the problem, never a trap, and the module keeps working. The exports
// are enumerated from the package, so a new export is covered without
// touching this file; SAMPLES only gives good values for the other positions
// so the bad one is reached past the first check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import api from '../../pkg/node/index.mjs';
import * as full from '../../pkg/node/index.mjs';
import * as lite from '../../pkg/node/lite.mjs';

const internals = api[Symbol.for('editblocks.internals')];

const nest = (depth, make) => {
  let v = 'leaf';
  for (let i = 0; i < depth; i++) v = make(v);
  return v;
};
const deepObject = nest(5000, (v) => ({ a: v }));
const deepArray = nest(5000, (v) => [v]);
const throwingProxy = new Proxy({}, {
  get() { throw new Error('proxy get refused'); },
  ownKeys() { throw new Error('proxy ownKeys refused'); },
  has() { throw new Error('proxy has refused'); },
  getOwnPropertyDescriptor() { throw new Error('proxy descriptor refused'); },
  getPrototypeOf() { throw new Error('proxy prototype refused'); },
});
const STRING_THROWN = 'a proxy threw this string';
const stringThrowingProxy = new Proxy([], { get() { throw STRING_THROWN; }, ownKeys() { throw STRING_THROWN; } });
const { proxy: revoked, revoke } = Proxy.revocable({}, {});
revoke();
const throwingGetter = Object.defineProperty({}, 'filePath', { enumerable: true, get() { throw new Error('getter refused'); } });
const block = { format: 'search-replace', filePath: 'a.txt', anchor: '', oldLines: 'old', newLines: 'new', trailingAnchor: '', rawBlock: '', lineNumber: 1 };

/** Values of every JS type; each is tried in every position. */
const VALUES = {
  undefined: undefined,
  null: null,
  true: true,
  false: false,
  zero: 0,
  'minus zero': -0,
  NaN: NaN,
  Infinity: Infinity,
  '-Infinity': -Infinity,
  five: 5,
  'huge number': 2 ** 53 + 2,
  'negative': -7,
  bigint: 10n,
  'empty string': '',
  string: 'x',
  'lone high surrogate': '\ud800',
  'lone low surrogate in text': 'a\udc00b\n',
  'huge string': 'y\n'.repeat(2 ** 21),
  symbol: Symbol('s'),
  function: () => 1,
  class: class Foo {},
  'empty array': [],
  'mixed array': [1, 'a', null, {}],
  'array of lone surrogates': ['\ud800', '\udfff'],
  'deep object': deepObject,
  'deep array': deepArray,
  'tool calls with deep arguments': [{ name: 'write_file', arguments: { path: 'a.txt', content: deepObject } }],
  'tool calls with deep JSON text': [{ name: 'edit_file', arguments: '['.repeat(5000) + ']'.repeat(5000) }],
  'hashline call with deep edits': { path: 'a.txt', edits: deepArray },
  'hashline call as deep JSON text': '{"path":"a.txt","edits":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
  'block with deep fields': { ...block, oldLines: deepObject },
  'block with wrong field types': { format: 5, filePath: {}, oldLines: [], newLines: Symbol.iterator.description },
  'results with deep items': [{ filePath: 'a', status: 'failed', diagnostics: deepObject }],
  'throwing proxy': throwingProxy,
  'string-throwing proxy': stringThrowingProxy,
  'revoked proxy': revoked,
  'throwing getter': throwingGetter,
  'typed array': new Uint8Array([1, 2, 3]),
  Date: new Date(0),
  Map: new Map([['a', 1]]),
  'null-prototype object': Object.create(null),
  'object with toString that throws': { toString() { throw new Error('toString refused'); } },
  'many keys': Object.fromEntries(Array.from({ length: 50000 }, (_, i) => [`k${i}`, i])),
};

const memoryHost = () => {
  const files = new Map([['a.txt', 'old\n']]);
  return { readFile: (p) => files.get(p) ?? null, writeFile: (p, c) => void files.set(p, c), deleteFile: (p) => void files.delete(p) };
};

/** Good arguments for known exports, so a bad value in one position meets the checks after the first. */
const SAMPLES = {
  parseEdits: () => ['a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n', { formats: ['search-replace'] }],
  detectFormat: () => ['x'],
  detectShellSuggestions: () => ['`git rm a`'],
  systemPrompt: () => ['tools'],
  validateEdit: () => [block, 'old\n', {}],
  applyToContent: () => [block, 'old\n', {}],
  applyEdits: () => [[block], memoryHost(), {}],
  applyEditsSync: () => [[block], memoryHost(), {}],
  applyToolCalls: () => [[{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }], memoryHost(), {}],
  applyToolCallsSync: () => [[{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }], memoryHost(), {}],
  applyHashlineEdit: () => [{ path: 'a.txt', edits: [] }, memoryHost(), {}],
  applyHashlineEditSync: () => [{ path: 'a.txt', edits: [] }, memoryHost(), {}],
  toolSchemas: () => ['search_replace', { api: 'openai' }],
  toolSystemPrompt: () => ['anchored'],
  fileStatus: () => [{ context: 'a', local: 'a', output: 'b' }],
  retryContext: () => [{ errors: [], calls: [] }],
  lineId: () => ['line', { width: 3 }],
  formatHashlines: () => ['a\nb\n', { startLine: 1 }],
  hashlineSystemPrompt: () => [{ width: 3 }],
  diffBlock: () => ['a\nb', 'a\nc'],
  renderEditBlock: () => [block, [], { index: 0 }],
  renderInProgressEditBlock: () => ['a.txt', ['x']],
  renderEditsSummary: () => [[{ filePath: 'a.txt', status: 'applied' }], {}],
  nodeHost: () => [process.cwd(), { git: false }],
  EditStream: () => [{ formats: ['edit-repl'] }],
  EditPreview: () => ['a.txt', 'old\n'],
  ToolCallPreview: () => [{ name: 'edit_file', files: { 'a.txt': 'old\n' } }],
};
const POSITIONS = 4;
// nodeHost(root) with a string is a real folder: only non-strings are tried at position 0.
const SKIP = { nodeHost: (pos, value) => pos === 0 && typeof value === 'string' };

/** A call's outcome: fine, or an error that is an Error (or exactly what a hostile proxy threw). */
function checkOutcome(what, thrown) {
  if (thrown === undefined) return;
  const e = thrown.error;
  if (e === STRING_THROWN) return;
  assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what} trapped: ${e && e.message}`);
  assert.ok(e instanceof Error, `${what} threw a non-Error: ${String(e)}`);
  assert.ok(!/internal error/.test(e.message), `${what} trapped and was reset: ${e.message}`);
  assert.ok(e.message.length > 0, `${what} threw an Error without a message`);
}

async function attempt(fn) {
  try {
    const out = fn();
    if (out && typeof out.then === 'function') await out;
    return undefined;
  } catch (error) {
    return { error };
  }
}

test('every name the package exports is declared in its types (no internal helper leaks out)', () => {
  const typesDir = new URL('../../pkg/types/', import.meta.url);
  const declared = new Set();
  for (const file of fs.readdirSync(typesDir).filter((f) => f.endsWith('.d.ts'))) {
    const text = fs.readFileSync(new URL(file, typesDir), 'utf8');
    for (const m of text.matchAll(/^export (?:declare )?(?:function|class|const|let) (\w+)/gm)) declared.add(m[1]);
  }
  assert.ok(declared.has('parseEdits') && declared.has('EditStream'), 'the types were read');
  for (const [entry, names] of [['editblocks', Object.keys(full)], ['editblocks/lite', Object.keys(lite)]]) {
    const undeclared = names.filter((n) => n !== 'default' && !declared.has(n));
    assert.deepEqual(undeclared, [], `${entry} exports names its types do not declare`);
  }
});

test('every export, every JS type in every argument position: TypeError or Error, never a trap', async () => {
  const names = Object.keys(api).filter((n) => typeof api[n] === 'function');
  assert.ok(names.length >= 25, `only ${names.length} exported functions found`);
  const resetsBefore = internals.resetCount();
  let calls = 0;
  for (const name of names) {
    const fn = api[name];
    const isClass = /^class[\s{]/.test(Function.prototype.toString.call(fn));
    for (let pos = 0; pos < POSITIONS; pos++) {
      for (const [label, value] of Object.entries(VALUES)) {
        if (SKIP[name]?.(pos, value)) continue;
        for (const base of [[], SAMPLES[name]?.() ?? []]) {
          const args = [...base];
          while (args.length < pos) args.push(undefined);
          args[pos] = value;
          const what = `${name}(${label} at argument ${pos})`;
          checkOutcome(what, await attempt(() => (isClass ? new fn(...args) : fn(...args))));
          calls++;
        }
      }
    }
  }
  assert.equal(internals.resetCount(), resetsBefore, 'no call trapped (the module was never reset)');
  assert.ok(calls > 3000, `${calls} calls`);
  // The module still works.
  assert.equal(api.parseEdits('a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n').length, 1);
  assert.deepEqual(api.applyToContent(block, 'old\n').content, 'new\n');
});

test('every method of every exported class, with every JS type: TypeError or Error, never a trap', async () => {
  const resetsBefore = internals.resetCount();
  for (const name of Object.keys(api)) {
    const C = api[name];
    if (typeof C !== 'function' || !/^class[\s{]/.test(Function.prototype.toString.call(C))) continue;
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(C.prototype)).filter((m) => m !== 'constructor' && !m.startsWith('_'));
    assert.ok(methods.length > 0, `${name} has methods`);
    for (const method of methods) {
      for (const [label, value] of Object.entries(VALUES)) {
        const obj = new C(...(SAMPLES[name]?.() ?? []));
        checkOutcome(`${name}.${method}(${label})`, await attempt(() => obj[method](value)));
        checkOutcome(`${name}.${method}(${label}) then finish`, await attempt(() => obj.finish?.()));
      }
    }
  }
  assert.equal(internals.resetCount(), resetsBefore, 'no call trapped');
});

test('the errors name the function, the argument and what was expected', () => {
  assert.throws(() => api.detectShellSuggestions(5), { name: 'TypeError', message: /detectShellSuggestions: text must be a string, got 5/ });
  assert.throws(() => api.systemPrompt(Symbol('x')), { name: 'TypeError', message: /systemPrompt: kind must be a string, got a symbol/ });
  assert.throws(() => api.applyToContent(block, 5), { name: 'TypeError', message: /applyToContent: content must be a string, got 5/ });
  assert.throws(() => api.validateEdit(block, true), { name: 'TypeError', message: /validateEdit: content must be a string, got true/ });
  assert.throws(() => api.validateEdit('block', 'x'), { name: 'TypeError', message: /validateEdit: block must be an edit block object/ });
});

test('a wrong argument is a TypeError or RangeError naming it, not an Error in serde or fs words', () => {
  const host = memoryHost();
  const cases = [
    // A misspelt patch operation would read as a block without one: an update.
    [() => api.applyEditsSync([{ ...block, operation: 'exec' }], host, { dryRun: true }), TypeError, /applyEditsSync: blocks\[0\]\.operation must be one of "add", "delete", "update" \(or absent\), got "exec"/],
    [() => api.applyEditsSync([{ ...block, format: 'apply-patch', operation: 'exec' }], host), TypeError, /blocks\[0\]\.operation must be one of/],
    [() => api.validateEdit({ ...block, operation: 'exec' }, 'old\n'), TypeError, /validateEdit: block\.operation must be one of/],
    [() => api.applyToContent({ ...block, format: 'bogus' }, 'old\n'), TypeError, /applyToContent: block\.format must be one of "edit-repl", .*got "bogus"/],
    [() => api.applyEditsSync([block, { ...block, format: 5 }], host), TypeError, /applyEditsSync: blocks\[1\]\.format must be one of .*got 5/],
    [() => api.applyToolCallsSync([], host, { maxCharacters: -1 }), RangeError, /applyToolCalls option maxCharacters must be a whole number from 0, got -1/],
    [() => api.applyToolCallsSync([], host, { maxCharacters: 1.5 }), TypeError, /option maxCharacters must be a whole number from 0, got 1\.5/],
    [() => api.toolSchemas('text_editor', { api: 'anthropic', maxCharacters: -1 }), RangeError, /toolSchemas option maxCharacters must be a whole number from 0/],
    [() => api.nodeHost(process.cwd(), { stateDir: 5 }), TypeError, /nodeHost: options\.stateDir must be a string or absent, got 5/],
    [() => api.nodeHost(process.cwd(), { flush: 'no' }), TypeError, /nodeHost: options\.flush must be true or false, got/],
    [() => api.nodeHost(process.cwd(), 5), TypeError, /nodeHost: options must be an object/],
    [() => api.toolSystemPrompt('bogus'), TypeError, /toolSystemPrompt: unknown diffMode "bogus"; use 'search_replace_multi'/],
    [() => api.toolSchemas('bogus'), TypeError, /toolSchemas: unknown diffMode "bogus"/],
    [() => api.toolSchemas('text_editor', { api: 'bogus' }), TypeError, /toolSchemas: unknown api "bogus"/],
    [() => api.systemPrompt('bogus'), TypeError, /systemPrompt does not know "bogus"/],
    [() => new api.EditSession().depth(5), TypeError, /EditSession\.depth: path must be a string, got 5/],
    [() => new api.EditSession().clear({}), TypeError, /EditSession\.clear: path must be a string, got an object/],
    [() => new api.EditSession().clear(null), TypeError, /EditSession\.clear: path must be a string, got null/],
    // An EditBlock's fields, named where they are.
    [() => api.validateEdit({ ...block, filePath: undefined }, 'old\n'), TypeError, /validateEdit: block\.filePath must be a string, got a undefined|validateEdit: block\.filePath must be a string/],
    [() => api.applyToContent({ ...block, oldLines: null }, 'old\n'), TypeError, /applyToContent: block\.oldLines must be a string, got null/],
    [() => api.applyEditsSync([{ ...block, lineNumber: -1 }], host), RangeError, /blocks\[0\]\.lineNumber must be a whole number from 0 to 4294967295, got -1/],
    // The hashline options and a result given back.
    [() => api.hashlineSystemPrompt({ width: -7 }), RangeError, /hashlineSystemPrompt width must be an integer from 1 to 12, got -7/],
    [() => api.applyHashlineEditSync({ path: 'a.txt', edits: [] }, host, { width: 0 }), RangeError, /applyHashlineEditSync width must be an integer from 1 to 12, got 0/],
    [() => api.formatHashlines('a\n', { width: -1 }), RangeError, /formatHashlines width must be an integer from 1 to 12, got -1/],
    [() => api.lineId('a', { width: 13 }), RangeError, /lineId width must be an integer from 1 to 12, got 13/],
    [() => api.lineId('a', { width: 1e21 }), RangeError, /lineId width must be an integer from 1 to 12, got 1e\+21/],
    [() => api.formatHashlines('a\n', { startLine: -1 }), RangeError, /formatHashlines option startLine must be a whole number from 0, got -1/],
    [() => api.retryContext({ errors: null, calls: [] }), TypeError, /retryContext: result\.errors must be an array, got null/],
    [() => api.retryContext({ errors: [5], calls: [] }), TypeError, /retryContext: result\.errors\[0\] must be a string, got 5/],
  ];
  for (const [call, ErrorClass, message] of cases) {
    assert.throws(call, (e) => {
      assert.equal(e.constructor, ErrorClass, `${call}: ${e.constructor.name}: ${e.message}`);
      assert.match(e.message, message);
      return true;
    });
  }
  // What is right still works.
  const session = new api.EditSession();
  assert.equal(session.depth('a.txt'), 0);
  session.clear('a.txt');
  session.clear();
  assert.equal(api.applyEditsSync([{ ...block, format: 'apply-patch', operation: 'update', hunks: [] }], host, { dryRun: true }).results.length, 1);
});

test('deep nesting is refused before it reaches the module, naming the limit and the place', () => {
  const host = memoryHost();
  assert.throws(() => api.applyToolCallsSync(VALUES['tool calls with deep arguments'], host), {
    name: 'TypeError',
    message: /applyToolCallsSync: calls\[0\]\.arguments\.content(\.a)+ is nested more than 64 levels deep/,
  });
  assert.throws(() => api.applyHashlineEditSync(VALUES['hashline call with deep edits'], host), {
    name: 'TypeError',
    message: /applyHashlineEditSync: call\.edits(\[0\])+ is nested more than 64 levels deep/,
  });
  assert.throws(() => api.validateEdit({ ...block, oldLines: deepObject }, 'x'), { name: 'TypeError', message: /nested more than 64 levels/ });
  assert.throws(() => api.renderEditsSummary(VALUES['results with deep items']), { name: 'TypeError', message: /renderEditsSummary: results\[0\]\.diagnostics(\.a)+ is nested more than 64/ });
  assert.throws(() => api.applyEditsSync(new Array(16 * 1024 * 1024 + 1), host), { name: 'TypeError', message: /applyEditsSync: blocks holds more than 16777216 values/ });
  // The path of a refusal is spelt out, keys quoted where needed.
  assert.throws(() => api.renderEditsSummary([{ filePath: 'a', status: 'applied', diagnostics: { 'odd key': [1, 2n] } }]), {
    name: 'TypeError',
    message: /renderEditsSummary: results\[0\]\.diagnostics\["odd key"\]\[1\] is a bigint; only strings, numbers, booleans, null, arrays and plain objects are accepted/,
  });
  // Nesting just inside the limit still works.
  const ok = api.applyToolCallsSync([{ name: 'write_file', arguments: { path: 'a.txt', content: 'x', extra: nest(50, (v) => ({ a: v })) } }], host, { dryRun: true });
  assert.ok(ok.results || ok.errors !== undefined);
});

test('JSON text nested too deep is refused by the core (serde_json stops at 128 levels), not a trap', () => {
  const host = memoryHost();
  const out = api.applyToolCallsSync(VALUES['tool calls with deep JSON text'], host);
  assert.match(JSON.stringify(out), /recursion limit exceeded/);
  const hashline = api.applyHashlineEditSync(VALUES['hashline call as deep JSON text'], host);
  assert.match(JSON.stringify(hashline), /recursion limit exceeded/);
});
