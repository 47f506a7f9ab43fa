#!/usr/bin/env node
// Serves the repository root on localhost so www/ can load the built package
// from ../pkg/. Usage: node scripts/build.mjs && node www/serve.mjs [port]
// (port 0 picks a free one). `/` opens the demo page. The browser tests
// import { serve } from here.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/**
 * Starts the server; resolves to { server, url } once listening on 127.0.0.1.
 * `headers` are added to every file served (a Content-Security-Policy, say).
 */
export function serve({ port = 0, dir = root, headers = {} } = {}) {
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (pathname === '/') {
      res.writeHead(302, { Location: '/www/' }).end();
      return;
    }
    let file = path.join(dir, pathname);
    // Never serve anything outside the root.
    if (file !== dir && !file.startsWith(dir + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (pathname.endsWith('/')) file = path.join(file, 'index.html');
    fs.stat(file, (err, stat) => {
      if (err || !stat.isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${pathname}`);
        return;
      }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
        'Cache-Control': 'no-store',
        ...headers,
      });
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://127.0.0.1:${actual}` });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  if (!fs.existsSync(path.join(root, 'pkg', 'web', 'index.js'))) {
    console.error('pkg/ is not built yet: run `node scripts/build.mjs` first.');
    process.exit(1);
  }
  const { url } = await serve({ port });
  console.log(`editblocks demo: ${url}/www/  (Ctrl-C to stop)`);
}
