#!/usr/bin/env node
// Runs every benchmark that benches/README.md's table reports, one after the
// other, each in a process of its own, against the release build in pkg/
// (run `node scripts/build.mjs` first). Each prints our figure and its peer's,
// measured in the same run. Usage: node benches/all.mjs [name…]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ALL = ['parse', 'apply', 'diff', 'patch', 'update-file', 'preview', 'limits', 'batched', 'driver', 'init', 'first-paint', 'mcp'];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
for (const name of chosen) {
  if (!ALL.includes(name)) throw new Error(`benches/all.mjs: no benchmark named ${name} (one of ${ALL.join(', ')})`);
  console.log(`\n== node benches/${name}.mjs`);
  execFileSync(process.execPath, [path.join(here, `${name}.mjs`)], { stdio: 'inherit' });
}
