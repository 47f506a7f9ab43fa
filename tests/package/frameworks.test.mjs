// The packed tarball where users bundle it for a server: a Next.js app
// router project (a 'use client' component with the README's browser import,
// and a Node route handler) built by `next build` with Turbopack and with
// webpack, then served and opened in headless Chromium; and a Node backend
// bundled by esbuild (ESM and CommonJS) and run from a folder with no
// node_modules, as a serverless function is. Nothing is configured for the
// package: no serverExternalPackages, no copied wasm file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, watch } from '../browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-frameworks-'));
const devDependencies = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const REPLY = 'Here:\n\nsrc/a.js\n<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE\n';

let tarball;
let browser;

before(async () => {
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  tarball = path.join(scratch, JSON.parse(out)[0].filename);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A project in the scratch folder with the tarball and `deps` (pinned as this repository pins them). */
function project(name, files, deps = []) {
  const dir = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const pinned = deps.map((d) => `${d}@${devDependencies[d]}`);
  // The dependencies are in npm's cache from this repository's own install.
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...pinned], dir);
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const NEXT_APP = {
  'package.json': JSON.stringify({ name: 'next-app', private: true }, null, 2),
  'app/layout.js': `export const metadata = { title: 'editblocks in Next.js' };
export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`,
  'app/page.js': `import Preview from './preview.js';
export default function Page() {
  return <main><h1>Reply</h1><Preview /></main>;
}
`,
  // The README's browser import, in a client component: prerendered on the
  // server at build time, hydrated in the browser.
  'app/preview.js': `'use client';
import { useEffect, useState } from 'react';
import { init, parseEdits, renderEditBlock } from 'editblocks';
import 'editblocks/style.css';

const REPLY = ${JSON.stringify(REPLY)};

export default function Preview() {
  const [html, setHtml] = useState('');
  useEffect(() => {
    init().then(() => setHtml(parseEdits(REPLY).map((b) => renderEditBlock(b)).join('')));
  }, []);
  return <div id="out" data-ready={html ? 'yes' : 'no'} dangerouslySetInnerHTML={{ __html: html }} />;
}
`,
  // A Node route handler that applies a reply to a memory host.
  'app/api/apply/route.js': `import { applyEditsSync } from 'editblocks';

export const dynamic = 'force-dynamic';

export async function GET() {
  const files = new Map([['src/a.js', 'const a = 1;\\n']]);
  const host = { readFile: (p) => files.get(p) ?? null, writeFile: (p, c) => void files.set(p, c) };
  const result = applyEditsSync(${JSON.stringify(REPLY)}, host);
  return Response.json({ status: result.results.map((r) => r.status), after: files.get('src/a.js') });
}
`,
};

for (const bundler of ['turbopack', 'webpack']) {
  test(`Next.js (${bundler}): next build, then the client component renders in Chromium and the route handler applies`, async () => {
    const dir = project(`next-${bundler}`, NEXT_APP, ['next', 'react', 'react-dom']);
    const nextBin = path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next');
    try {
      sh(process.execPath, [nextBin, 'build', bundler === 'webpack' ? '--webpack' : '--turbopack'], dir);
    } catch (e) {
      assert.fail(`next build (${bundler}) failed:\n${e.stdout}\n${e.stderr}`);
    }
    const port = await freePort();
    const server = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (d) => { output += d; });
    server.stderr.on('data', (d) => { output += d; });
    try {
      const base = `http://127.0.0.1:${port}`;
      // Wait until the server answers.
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${base}/api/apply`)).ok) break;
        } catch {}
        if (i > 150) assert.fail(`next start did not answer:\n${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const api = await (await fetch(`${base}/api/apply`)).json();
      assert.deepEqual(api, { status: ['applied'], after: 'const a = 2;\n' });

      const page = await browser.context.newPage();
      const seen = watch(page);
      await page.goto(`${base}/`);
      await page.waitForSelector('#out[data-ready="yes"] .eb-block', { timeout: 30000 });
      const block = await page.$eval('.eb-block', (el) => ({
        path: el.querySelector('.eb-path')?.textContent,
        added: el.querySelector('.eb-line-added')?.textContent ?? '',
        border: getComputedStyle(el).borderTopStyle,
      }));
      assert.equal(block.path, 'src/a.js');
      assert.match(block.added, /const a = 2;/);
      assert.equal(block.border, 'solid', 'editblocks/style.css is applied');
      assert.deepEqual(seen.errors, []);
      await page.close();
    } finally {
      server.kill();
    }
  });
}

const BACKEND = `import { applyEditsSync, nodeHost } from 'editblocks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-bundled-'));
fs.mkdirSync(path.join(dir, 'src'));
fs.writeFileSync(path.join(dir, 'src', 'a.js'), 'const a = 1;\\n');
const result = applyEditsSync(${JSON.stringify(REPLY)}, nodeHost(dir, { stateDir: path.join(dir, '.state') }));
console.log(JSON.stringify([result.results[0].status, fs.readFileSync(path.join(dir, 'src', 'a.js'), 'utf8')]));
fs.rmSync(dir, { recursive: true, force: true });
`;

for (const format of ['esm', 'cjs']) {
  test(`a Node backend bundled by esbuild (--platform=node --format=${format}) runs from another folder`, () => {
    const dir = project(`esbuild-${format}`, { 'package.json': JSON.stringify({ name: `esbuild-${format}`, private: true }), 'main.mjs': BACKEND });
    const deployed = fs.mkdtempSync(path.join(scratch, `deployed-${format}-`));
    const outfile = path.join(deployed, format === 'esm' ? 'handler.mjs' : 'handler.cjs');
    sh(path.join(root, 'node_modules', '.bin', 'esbuild'), ['main.mjs', '--bundle', '--platform=node', `--format=${format}`, `--outfile=${outfile}`, '--log-level=error'], dir);
    // The deployed folder holds the bundle alone.
    assert.deepEqual(fs.readdirSync(deployed), [path.basename(outfile)]);
    const printed = sh(process.execPath, [outfile], deployed).trim();
    assert.deepEqual(JSON.parse(printed), ['applied', 'const a = 2;\n']);
  });
}
