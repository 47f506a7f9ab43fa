#!/usr/bin/env node
// Assembles the npm package in pkg/ from the wasm-bindgen outputs, js/ and
// pkg-template/:
//
//   pkg/node/index.cjs   Node, require(): wasm loaded synchronously, no init
//   pkg/node/index.mjs   Node, import: a thin ESM face over index.cjs (one instance)
//   pkg/web/index.js     browsers and bundlers: init() / initSync(bytes)
//   pkg/web/editblocks_bg.wasm  the one wasm file: Node reads it too
//   pkg/node/lite.{cjs,mjs}, pkg/web/lite.js, pkg/web/editblocks_lite_bg.wasm
//                        editblocks/lite: parse and render only, its own smaller module
//   pkg/bin/editblocks.mjs  the CLI, with its MCP server (js/mcp.js) and the MCP SDK bundled in
//   pkg/node/ai-sdk.mjs, pkg/web/ai-sdk.js  editblocks/ai-sdk (imports the caller's `ai`)
//   pkg/types/, pkg/style.css, pkg/package.json, pkg/README.md
//
// Usage: node scripts/build.mjs [--dev]   (--dev skips wasm-opt, for quick iterations)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const toolsBin = process.env.EDITBLOCKS_TOOLS ? path.join(process.env.EDITBLOCKS_TOOLS, 'bin') : path.join(root, '.tools', 'bin');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });

const log = (msg) => console.log(`[build] ${msg}`);

const buildDir = path.join(root, 'build');
fs.rmSync(buildDir, { recursive: true, force: true });
const WASM_OPT_FLAGS = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals'];

/**
 * Builds one wasm module and its glue: cargo, then wasm-bindgen's `web`
 * target (Node instantiates the same file synchronously: js/loading.js),
 * wasm-opt unless --dev, and patchGlue. Returns wasm-bindgen's output before
 * wasm-opt (names kept, for the size report).
 */
function buildWasm({ label, cargoArgs = [], targetDir, env = {}, outName, glueDir, optFlags = [] }) {
  log(`cargo build --release --target wasm32-unknown-unknown ${cargoArgs.join(' ')} (${label})`.replace(/ +\(/, ' ('));
  run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown', '-p', 'editblocks-wasm', ...cargoArgs], {
    env: { ...process.env, ...(targetDir ? { CARGO_TARGET_DIR: targetDir } : {}), ...env },
  });
  const cargoWasm = path.join(targetDir ?? path.join(root, 'target'), 'wasm32-unknown-unknown', 'release', 'editblocks_wasm.wasm');
  log(`wasm-bindgen --target web (${label})`);
  run(path.join(toolsBin, 'wasm-bindgen'), [cargoWasm, '--target', 'web', '--out-dir', glueDir, '--out-name', outName]);
  // wasm-bindgen's output still has the function names (wasm-opt drops them) and no
  // longer has the binding's describe functions: the size report reads this copy.
  const named = path.join(buildDir, `${outName}.named.wasm`);
  fs.copyFileSync(path.join(glueDir, `${outName}_bg.wasm`), named);
  if (!dev) {
    const file = path.join(glueDir, `${outName}_bg.wasm`);
    log(`wasm-opt -Oz ${optFlags.join(' ')} (${label})`.replace(/ +\(/, ' ('));
    run(bin('wasm-opt'), ['-Oz', ...optFlags, ...WASM_OPT_FLAGS, file, '-o', file]);
  }
  patchGlue(path.join(glueDir, `${outName}.js`));
  return named;
}

// One glue per module: the full one, and the parse-and-render-only one of
// `editblocks/lite` (cargo feature `full` off, every crate at opt-level "z":
// bindings/wasm/src/wasm/mod.rs says what it binds).
const glueDir = path.join(buildDir, 'web');
const wasm = buildWasm({ label: 'full', outName: 'editblocks', glueDir });
const liteGlueDir = path.join(buildDir, 'lite');
const liteWasm = buildWasm({
  label: 'lite',
  cargoArgs: ['--no-default-features', '--config', 'profile.release.package."*".opt-level="z"',
    '--config', 'profile.release.package.similar.opt-level="z"', '--config', 'profile.release.package.unicode-segmentation.opt-level="z"'],
  targetDir: path.join(root, 'target', 'lite'),
  env: { CARGO_PROFILE_RELEASE_OPT_LEVEL: 'z' },
  outName: 'editblocks_lite',
  glueDir: liteGlueDir,
  // Repeat until nothing shrinks; the memory is the module's own (not
  // imported), so it starts zero-filled. 0.6 KiB gzipped.
  optFlags: ['--converge', '--zero-filled-memory', '--strip-debug', '--strip-producers'],
});

/**
 * Adds to wasm-bindgen's glue what js/guard.js needs to replace a trapped
 * instance: a generation counter, a way to drop the instance and make a new
 * one from the compiled module kept at init, and finalizers that never free
 * an old instance's pointer into the new one (FinalizationRegistry is
 * shadowed inside the glue). Methods of the glue's classes refuse to run on
 * an object from an older generation (free() just lets go of it).
 * The glue is generated by the pinned wasm-bindgen; the build fails if what
 * this patch relies on is missing.
 */
function patchGlue(file) {
  let glue = fs.readFileSync(file, 'utf8');
  for (const needed of ['let wasmModule, wasmInstance, wasm;', 'let __wbg_init_promise;', 'function initSync(module) {', '__destroy_into_raw() {']) {
    if (!glue.includes(needed)) throw new Error(`build: the wasm-bindgen glue changed (no ${JSON.stringify(needed)}); update patchGlue in scripts/build.mjs`);
  }
  const classes = [...glue.matchAll(/^export class (\w+) \{$/gm)].map((m) => m[1]);
  const prelude = `// Added by scripts/build.mjs (patchGlue): see js/guard.js.
let __ebGeneration = 0;
const FinalizationRegistry = class {
  constructor(free) {
    const Real = globalThis.FinalizationRegistry;
    this.registry = Real === undefined ? null : new Real(([ptr, generation]) => { if (generation === __ebGeneration) free(ptr); });
  }
  register(target, ptr, token) {
    target.__ebGeneration = __ebGeneration;
    if (this.registry !== null) this.registry.register(target, [ptr, __ebGeneration], token);
  }
  unregister(token) {
    if (this.registry !== null) this.registry.unregister(token);
  }
};
`;
  const tail = `
// Added by scripts/build.mjs (patchGlue): see js/guard.js.
for (const C of [${classes.join(', ')}]) {
  const proto = C.prototype;
  for (const key of [...Object.getOwnPropertyNames(proto), ...Object.getOwnPropertySymbols(proto)]) {
    const method = proto[key];
    if (key === 'constructor' || key === '__destroy_into_raw' || typeof method !== 'function') continue;
    const letGo = key === 'free' || method === proto.free;
    proto[key] = function (...args) {
      if (this.__ebGeneration !== __ebGeneration) {
        if (letGo) return void this.__destroy_into_raw();
        throw new Error('editblocks: this object was made before the module was reset after an internal error; start again with a new one');
      }
      return method.apply(this, args);
    };
  }
}
export function __editblocks_ready() { return wasm !== undefined; }
export function __editblocks_generation() { return __ebGeneration; }
export function __editblocks_reinstantiate() {
  const module = wasmModule;
  if (module === undefined) throw new Error('editblocks: the module was never loaded');
  __ebGeneration++;
  wasm = undefined;
  wasmInstance = undefined;
  __wbg_init_promise = undefined;
  initSync({ module });
}
`;
  glue = glue.replace(/^(\/\* @ts-self-types[^\n]*\n)?/, (m) => m + prelude) + tail;
  fs.writeFileSync(file, glue);
}

const pkg = path.join(root, 'pkg');
fs.rmSync(pkg, { recursive: true, force: true });
for (const dir of ['node', 'web', 'bin', 'types']) fs.mkdirSync(path.join(pkg, dir), { recursive: true });

// The tables a module exports as constants, which a browser reads before
// init(): written here from the binding (the full module, loaded once in
// this process), and bundled as 'editblocks-tables'. No list is copied by hand.
const tablesModule = path.join(buildDir, 'tables.mjs');
{
  const glue = await import(pathToFileURL(path.join(glueDir, 'editblocks.js')).href);
  glue.initSync({ module: fs.readFileSync(path.join(glueDir, 'editblocks_bg.wasm')) });
  const names = JSON.parse(glue.optionNames());
  fs.writeFileSync(tablesModule,
    '// Written by scripts/build.mjs from the binding\'s optionNames().\n' +
      `export const DIFF_MODES = Object.freeze(${JSON.stringify(names.diffMode)});\n` +
      `export const PROVIDER_TOOLS = Object.freeze(${JSON.stringify(names.providerTool)});\n`);
}

const esbuild = (entry, outfile, platform, format, extra = [], glue = path.join(glueDir, 'editblocks.js')) => {
  // Feature modules import the binding as 'editblocks-raw'; point it at the glue.
  run(bin('esbuild'), [
    entry, '--bundle', `--platform=${platform}`, `--format=${format}`, `--outfile=${outfile}`,
    `--alias:editblocks-raw=${glue}`, `--alias:editblocks-tables=${tablesModule}`, '--target=es2020', '--log-level=warning',
    '--log-override:import-is-undefined=error', '--log-override:commonjs-variable-in-esm=error', ...extra,
  ]);
};

// Each entry exports one `api` object (js/guard.js wraps every function);
// a generated face spells its names out as ES exports, so `import { x }` works
// and bundlers see the names.
const face = (entry, names) =>
  `import { api } from ${JSON.stringify(path.join(root, 'js', entry))};\n` +
  `export const { ${names.join(', ')} } = api;\nexport default api;\n`;
const namesOf = (api) => Object.keys(api).sort();

/**
 * Bundles one package entry from the same js/ modules: Node CommonJS
 * (node/<name>.cjs) with its ESM face (node/<name>.mjs, one instance for
 * import and require), and the browser ESM (web/<name>.js).
 */
async function bundleEntry({ label, name, nodeEntry, webEntry, glue, wasmName, extra = [] }) {
  log(`bundling the ${label} Node entry (CommonJS) and its ESM face`);
  fs.copyFileSync(path.join(path.dirname(glue), wasmName), path.join(pkg, 'web', wasmName));
  // CommonJS: module.exports is the api object itself.
  const nodeFace = path.join(buildDir, `${name}-node-face.cjs`);
  fs.writeFileSync(nodeFace, `module.exports = require(${JSON.stringify(path.join(root, 'js', nodeEntry))}).api;\n`);
  // The Node entry carries its module's bytes (base64 in the bundle, decoded once on require), so
  // it reads no file: a bundler that moves it (Next.js, esbuild --platform=node, serverless
  // packers) keeps a working entry. docs/decisions.md says why this over a file read.
  // An ES module: a CommonJS one exporting the Buffer would be wrapped by esbuild's __toESM,
  // which copies every byte as a property (seconds at require time).
  const bytesModule = path.join(buildDir, `${name}-wasm-bytes.mjs`);
  const wasmBase64 = fs.readFileSync(path.join(path.dirname(glue), wasmName)).toString('base64');
  fs.writeFileSync(bytesModule, `export default Buffer.from(${JSON.stringify(wasmBase64)}, 'base64');\n`);
  // The glue's default init() path uses import.meta.url; Node never takes it (js/loading.js).
  esbuild(nodeFace, path.join(pkg, 'node', `${name}.cjs`), 'node', 'cjs',
    ['--log-override:empty-import-meta=silent', `--alias:editblocks-wasm-bytes=${bytesModule}`, ...extra], glue);
  const nodeNames = namesOf(createRequire(import.meta.url)(path.join(pkg, 'node', `${name}.cjs`)));
  fs.writeFileSync(
    path.join(pkg, 'node', `${name}.mjs`),
    `// ESM face of ${name}.cjs, so import and require share one wasm instance.\n` +
      `import api from './${name}.cjs';\n` +
      `export const { ${nodeNames.join(', ')} } = api;\nexport default api;\n`,
  );
  log(`bundling the ${label} browser entry (ESM)`);
  const webCore = path.join(buildDir, `${name}-web-core.mjs`);
  esbuild(path.join('js', webEntry), webCore, 'neutral', 'esm', extra, glue);
  const webNames = namesOf((await import(pathToFileURL(webCore).href)).api);
  const webFace = path.join(buildDir, `${name}-web-face.js`);
  fs.writeFileSync(webFace, face(webEntry, webNames));
  esbuild(webFace, path.join(pkg, 'web', `${name}.js`), 'neutral', 'esm', extra, glue);
}

await bundleEntry({
  label: 'full', name: 'index', nodeEntry: 'entry-node.js', webEntry: 'entry-web.js',
  glue: path.join(glueDir, 'editblocks.js'), wasmName: 'editblocks_bg.wasm',
});
// editblocks/lite: the modules it shares with the full entry also reach for
// bindings only the full module has (js/preview.js checks before it uses them,
// js/common.js's systemPrompt is not in the lite API), so those imports are
// allowed to be undefined here; tests/js/lite.test.mjs runs every lite
// function against the full entry.
await bundleEntry({
  label: 'lite', name: 'lite', nodeEntry: 'entry-node-lite.js', webEntry: 'entry-web-lite.js',
  glue: path.join(liteGlueDir, 'editblocks_lite.js'), wasmName: 'editblocks_lite_bg.wasm',
  extra: ['--log-override:import-is-undefined=silent'],
});

if (fs.existsSync(path.join(root, 'js', 'cli.js'))) {
  log('bundling the CLI');
  run(bin('esbuild'), [
    'js/cli.js', '--bundle', '--platform=node', '--format=esm', `--outfile=${path.join(pkg, 'bin', 'editblocks.mjs')}`,
    '--external:../node/index.mjs', '--log-level=warning', '--banner:js=#!/usr/bin/env node',
  ]);
  fs.chmodSync(path.join(pkg, 'bin', 'editblocks.mjs'), 0o755);
}

// editblocks/ai-sdk: the edit tools as AI SDK tools, over the package's own
// entry (one wasm instance) and the caller's `ai` (a peer dependency, ESM only).
{
  log('bundling editblocks/ai-sdk');
  const nodeOut = path.join(pkg, 'node', 'ai-sdk.mjs');
  run(bin('esbuild'), [
    'js/ai-sdk.js', '--bundle', '--platform=node', '--format=esm', `--outfile=${nodeOut}`,
    '--external:../node/index.mjs', '--external:ai', '--target=es2020', '--log-level=warning',
  ]);
  // The browser build is the same module over the browser entry (beside it in web/).
  const text = fs.readFileSync(nodeOut, 'utf8');
  if (!text.includes('"../node/index.mjs"')) throw new Error('build: editblocks/ai-sdk no longer imports ../node/index.mjs; update the web copy in scripts/build.mjs');
  fs.writeFileSync(path.join(pkg, 'web', 'ai-sdk.js'), text.replaceAll('"../node/index.mjs"', '"./index.js"'));
}

log('copying the package template');
const copyTree = (from, to) => {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(dst, { recursive: true });
      copyTree(src, dst);
    } else fs.copyFileSync(src, dst);
  }
};
copyTree(path.join(root, 'pkg-template'), pkg);
log('deriving the web and CommonJS types');
{
  // editblocks/web has no Node-only parts: its types are index.d.ts without the lines marked `node only`.
  const types = path.join(pkg, 'types');
  const index = fs.readFileSync(path.join(types, 'index.d.ts'), 'utf8');
  fs.writeFileSync(path.join(types, 'web.d.ts'), index.split('\n').filter((l) => !/\/\/ node only\s*$/.test(l)).join('\n'));
  // Under node16/nodenext a .d.ts in a "type": "module" package is ESM; require() gets a .d.cts twin
  // of every file, importing the other twins.
  for (const file of fs.readdirSync(types).filter((f) => f.endsWith('.d.ts'))) {
    const text = fs.readFileSync(path.join(types, file), 'utf8').replace(/(from '\.\/[\w-]+)\.js'/g, "$1.cjs'");
    fs.writeFileSync(path.join(types, file.replace(/\.d\.ts$/, '.d.cts')), text);
  }
  // Resolvers that ignore "exports" (TypeScript's node10) find web/index.js and look beside it.
  fs.writeFileSync(path.join(pkg, 'web', 'index.d.ts'), "export * from '../types/web.js';\n");
  fs.writeFileSync(path.join(pkg, 'web', 'lite.d.ts'), "export * from '../types/lite.js';\n");
  // …and for editblocks/lite (a CommonJS entry there: node/lite.cjs) look in lite/.
  fs.mkdirSync(path.join(pkg, 'lite'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'lite', 'index.d.ts'), "export * from '../types/lite.cjs';\n");
  fs.mkdirSync(path.join(pkg, 'ai-sdk'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'ai-sdk', 'index.d.ts'), "export * from '../types/ai-sdk.js';\n");
}
// pkg-template/README.md is the package's README (for users); README.md stays for contributors.
fs.copyFileSync(path.join(root, 'LICENSE'), path.join(pkg, 'LICENSE'));

const gz = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const sizes = {};
for (const [key, file] of [['full', 'editblocks_bg.wasm'], ['lite', 'editblocks_lite_bg.wasm']]) {
  const bytes = path.join(pkg, 'web', file);
  sizes[key] = { file, wasmBytes: fs.statSync(bytes).size, wasmGzipBytes: gz(bytes) };
}
fs.writeFileSync(path.join(buildDir, 'size.json'), JSON.stringify({ ...sizes.full, lite: sizes.lite }, null, 2));
// What the bytes are (before wasm-opt, names kept): `node scripts/wasm-size.mjs build/<name>.named.wasm --top 30` for more.
const { report: sizeReport } = await import('./wasm-size.mjs');
for (const line of sizeReport(fs.readFileSync(wasm), 10)) log(`full wasm bytes, before wasm-opt: ${line}`);
for (const line of sizeReport(fs.readFileSync(liteWasm), 10)) log(`lite wasm bytes, before wasm-opt: ${line}`);
const note = dev ? ' (dev build: no wasm-opt)' : '';
log(`editblocks (full) ${sizes.full.file}: ${kib(sizes.full.wasmBytes)}, gzipped ${kib(sizes.full.wasmGzipBytes)}${note}`);
log(`editblocks/lite ${sizes.lite.file}: ${kib(sizes.lite.wasmBytes)}, gzipped ${kib(sizes.lite.wasmGzipBytes)}${note}`);
