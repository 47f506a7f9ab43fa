#!/usr/bin/env node
// Assembles the npm package in pkg/ from the wasm-bindgen outputs, js/ and
// pkg-template/:
//
//   pkg/node/index.cjs   Node, require(): wasm loaded synchronously, no init
//   pkg/node/index.mjs   Node, import: a thin ESM face over index.cjs (one instance)
//   pkg/web/index.js     browsers and bundlers: init() / initSync(bytes)
//   pkg/bin/editblocks.mjs  the CLI
//   pkg/types/, pkg/style.css, pkg/package.json, pkg/README.md
//
// Usage: node scripts/build.mjs [--dev]   (--dev skips wasm-opt, for quick iterations)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const toolsBin = process.env.EDITBLOCKS_TOOLS ? path.join(process.env.EDITBLOCKS_TOOLS, 'bin') : path.join(root, '.tools', 'bin');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });

const log = (msg) => console.log(`[build] ${msg}`);

log('cargo build --release --target wasm32-unknown-unknown');
run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown']);
const wasm = path.join(root, 'target', 'wasm32-unknown-unknown', 'release', 'editblocks.wasm');

const buildDir = path.join(root, 'build');
fs.rmSync(buildDir, { recursive: true, force: true });
for (const target of ['nodejs', 'web']) {
  const out = path.join(buildDir, target);
  log(`wasm-bindgen --target ${target}`);
  run(path.join(toolsBin, 'wasm-bindgen'), [wasm, '--target', target, '--out-dir', out, '--out-name', 'editblocks']);
  // The repository's package.json says "type": "module"; the nodejs output is CommonJS.
  if (target === 'nodejs') fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "commonjs" }\n');
  if (!dev) {
    const file = path.join(out, 'editblocks_bg.wasm');
    log(`wasm-opt -Oz (${target})`);
    run(bin('wasm-opt'), [
      '-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
      '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals',
      file, '-o', file,
    ]);
  }
}

const pkg = path.join(root, 'pkg');
fs.rmSync(pkg, { recursive: true, force: true });
for (const dir of ['node', 'web', 'bin', 'types']) fs.mkdirSync(path.join(pkg, dir), { recursive: true });

const esbuild = (entry, outfile, rawDir, platform, format, extra = []) => {
  // Feature modules import the binding as 'editblocks-raw'; point it at the target's output.
  const alias = `editblocks-raw=${path.join(buildDir, rawDir, 'editblocks.js')}`;
  run(bin('esbuild'), [
    entry, '--bundle', `--platform=${platform}`, `--format=${format}`, `--outfile=${outfile}`,
    `--alias:${alias}`, '--target=es2020', '--log-level=warning',
    '--log-override:import-is-undefined=error', '--log-override:commonjs-variable-in-esm=error', ...extra,
  ]);
};

log('bundling the Node entry (CommonJS) and its ESM face');
esbuild('js/entry-node.js', path.join(pkg, 'node', 'index.cjs'), 'nodejs', 'node', 'cjs');
fs.copyFileSync(path.join(buildDir, 'nodejs', 'editblocks_bg.wasm'), path.join(pkg, 'node', 'editblocks_bg.wasm'));
const names = Object.keys(createRequire(import.meta.url)(path.join(pkg, 'node', 'index.cjs'))).filter((n) => n !== 'default' && n !== '__esModule');
fs.writeFileSync(
  path.join(pkg, 'node', 'index.mjs'),
  `// ESM face of index.cjs, so import and require share one wasm instance.\n` +
    `import api from './index.cjs';\n` +
    `export const { ${names.join(', ')} } = api;\nexport default api;\n`,
);

log('bundling the browser entry (ESM)');
esbuild('js/entry-web.js', path.join(pkg, 'web', 'index.js'), 'web', 'neutral', 'esm');
fs.copyFileSync(path.join(buildDir, 'web', 'editblocks_bg.wasm'), path.join(pkg, 'web', 'editblocks_bg.wasm'));

if (fs.existsSync(path.join(root, 'js', 'cli.js'))) {
  log('bundling the CLI');
  run(bin('esbuild'), [
    'js/cli.js', '--bundle', '--platform=node', '--format=esm', `--outfile=${path.join(pkg, 'bin', 'editblocks.mjs')}`,
    '--external:../node/index.mjs', '--log-level=warning', '--banner:js=#!/usr/bin/env node',
  ]);
  fs.chmodSync(path.join(pkg, 'bin', 'editblocks.mjs'), 0o755);
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
// The package's README is the repository's: one text to keep true.
fs.copyFileSync(path.join(root, 'README.md'), path.join(pkg, 'README.md'));

const gz = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const webWasm = path.join(pkg, 'web', 'editblocks_bg.wasm');
const raw = fs.statSync(webWasm).size;
const gzipped = gz(webWasm);
fs.writeFileSync(path.join(buildDir, 'size.json'), JSON.stringify({ wasmBytes: raw, wasmGzipBytes: gzipped }, null, 2));
log(`editblocks_bg.wasm: ${(raw / 1024).toFixed(1)} KiB, gzipped ${(gzipped / 1024).toFixed(1)} KiB${dev ? ' (dev build: no wasm-opt)' : ''}`);
