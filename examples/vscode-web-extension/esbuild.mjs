// Bundles the web extension the way VS Code's "Web Extensions" guide does
// (esbuild, CommonJS, browser platform, `vscode` external), and copies the
// editblocks wasm next to the bundle: the extension reads it with
// workspace.fs and calls initSync(bytes).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const production = process.argv.includes('--production');
await esbuild.build({
  entryPoints: ['src/web/extension.ts'],
  bundle: true,
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  platform: 'browser',
  target: 'es2020',
  outdir: 'dist/web',
  external: ['vscode'],
  define: { global: 'globalThis' },
  logLevel: 'warning',
});
const wasm = createRequire(import.meta.url).resolve('editblocks/editblocks_bg.wasm');
fs.copyFileSync(wasm, path.join('dist', 'web', 'editblocks_bg.wasm'));
