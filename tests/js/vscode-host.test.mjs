// vscodeHost's own logic over a stand-in for workspace.fs: path to Uri,
// FileNotFound to null, folder creation, bytes both ways, confinement, and the
// WorkspaceEdit route. The real workspace.fs (VS Code for the Web in headless
// Chromium) is exercised by tests/package/vscode-web-extension.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, vscodeHost } from '../../pkg/node/index.mjs';

class Uri {
  constructor(scheme, path) {
    this.scheme = scheme;
    this.path = path;
  }
  with({ path }) {
    return new Uri(this.scheme, path ?? this.path);
  }
  toString() {
    return `${this.scheme}:${this.path}`;
  }
}

/** Behaves as VS Code's workspace.fs does: FileSystemError with code 'FileNotFound', writes need the folder. */
function memoryFs(initial = {}) {
  const files = new Map(Object.entries(initial).map(([p, t]) => [p, new TextEncoder().encode(t)]));
  const dirs = new Set(['/workspace']);
  for (const p of files.keys()) dirs.add(p.slice(0, p.lastIndexOf('/')));
  const calls = [];
  const notFound = (uri) => Object.assign(new Error(`${uri} not found`), { code: 'FileNotFound', name: 'EntryNotFound (FileSystemError)' });
  return {
    files,
    calls,
    text: (p) => new TextDecoder().decode(files.get(p)),
    async readFile(uri) {
      calls.push(['readFile', uri.toString()]);
      if (!files.has(uri.path)) throw notFound(uri);
      return files.get(uri.path);
    },
    async writeFile(uri, content) {
      calls.push(['writeFile', uri.toString()]);
      assert.ok(content instanceof Uint8Array, 'workspace.fs.writeFile takes bytes');
      if (!dirs.has(uri.path.slice(0, uri.path.lastIndexOf('/')))) throw notFound(uri);
      files.set(uri.path, content);
    },
    async createDirectory(uri) {
      calls.push(['createDirectory', uri.toString()]);
      const parts = uri.path.split('/');
      for (let i = 2; i <= parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    },
    async delete(uri) {
      calls.push(['delete', uri.toString()]);
      if (!files.delete(uri.path)) throw notFound(uri);
    },
  };
}

const reply = [
  'src/app.js', '<<<<<<< SEARCH', 'let count = 0;', '=======', 'let count = 1;', '>>>>>>> REPLACE', '',
  'docs/new/notes.md', '<<<<<<< SEARCH', '=======', '# Notes', '>>>>>>> REPLACE', '',
].join('\n');

test('edits and creates files through workspace.fs under the root Uri', async () => {
  const fs = memoryFs({ '/workspace/src/app.js': 'let count = 0;\n' });
  const result = await applyEdits(reply, vscodeHost(fs, new Uri('memfs', '/workspace/')));
  assert.deepEqual(result.results.map((r) => r.status), ['applied', 'applied'], JSON.stringify(result.results));
  assert.equal(fs.text('/workspace/src/app.js'), 'let count = 1;\n');
  assert.equal(fs.text('/workspace/docs/new/notes.md'), '# Notes\n');
  assert.deepEqual(fs.calls.filter(([m]) => m !== 'readFile'), [
    ['writeFile', 'memfs:/workspace/src/app.js'],
    ['createDirectory', 'memfs:/workspace/docs/new'],
    ['writeFile', 'memfs:/workspace/docs/new/notes.md'],
  ]);
});

test('a missing file is a failed edit, not a thrown error; other errors of workspace.fs are reported', async () => {
  const fs = memoryFs({});
  const result = await applyEdits('src/app.js\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n', vscodeHost(fs, new Uri('memfs', '/workspace')));
  assert.equal(result.results[0].errorKind, 'file-not-found');
  const denied = { ...memoryFs({}), readFile: async () => { throw Object.assign(new Error('no access'), { code: 'NoPermissions' }); } };
  const refused = await applyEdits('a.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n', vscodeHost(denied, new Uri('memfs', '/workspace')));
  assert.equal(refused.results[0].status, 'failed');
  assert.match(refused.results[0].reason, /no access/);
});

test('paths that could leave the root are refused by the host itself', async () => {
  const host = vscodeHost(memoryFs({}), new Uri('memfs', '/workspace'));
  for (const bad of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a\\..\\b', './a']) {
    await assert.rejects(async () => host.readFile(bad), /vscodeHost refuses the path/, bad);
  }
  assert.throws(() => vscodeHost({}, new Uri('memfs', '/workspace')), /workspace\.fs/);
  assert.throws(() => vscodeHost(memoryFs({}), '/workspace'), /vscode\.Uri/);
  assert.throws(() => vscodeHost(memoryFs({}), new Uri('memfs', '/workspace'), { workspaceEdit: {} }), /the vscode module/);
  assert.throws(() => vscodeHost(memoryFs({}), new Uri('memfs', '/workspace'), { useEdit: true }), /does not know the option "useEdit"/);
});

test('with workspaceEdit, changes go through workspace.applyEdit and reads see open (unsaved) documents', async () => {
  const fs = memoryFs({ '/workspace/src/app.js': 'let count = 0;\n' });
  const applied = [];
  const openDoc = { uri: new Uri('memfs', '/workspace/src/app.js'), text: 'let count = 0;\n// unsaved line\n' };
  const docOf = (text) => ({ getText: () => text, positionAt: (offset) => ({ offset }) });
  const vscode = {
    Range: class { constructor(start, end) { this.start = start; this.end = end; } },
    WorkspaceEdit: class {
      constructor() { this.ops = []; }
      replace(uri, range, text) { this.ops.push(['replace', uri.toString(), range.start.offset, range.end.offset, text]); }
      createFile(uri, opts) { this.ops.push(['createFile', uri.toString(), new TextDecoder().decode(opts.contents)]); }
      deleteFile(uri) { this.ops.push(['deleteFile', uri.toString()]); }
    },
    workspace: {
      textDocuments: [{ uri: openDoc.uri, getText: () => openDoc.text }],
      openTextDocument: async (uri) => docOf(uri.path === openDoc.uri.path ? openDoc.text : ''),
      applyEdit: async (edit) => { applied.push(...edit.ops); return true; },
    },
  };
  const result = await applyEdits(reply, vscodeHost(fs, new Uri('memfs', '/workspace'), { workspaceEdit: vscode }));
  assert.deepEqual(result.results.map((r) => r.status), ['applied', 'applied']);
  assert.deepEqual(applied, [
    ['replace', 'memfs:/workspace/src/app.js', 0, openDoc.text.length, 'let count = 1;\n// unsaved line\n'],
    ['createFile', 'memfs:/workspace/docs/new/notes.md', '# Notes\n'],
  ]);
  assert.equal(fs.text('/workspace/src/app.js'), 'let count = 0;\n', 'nothing was written to disk behind the editor');
});
