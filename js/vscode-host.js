// A FileHost over VS Code's `workspace.fs` (desktop and web extensions alike):
// the relative, already-confined paths the core hands out become Uris under
// the root, bytes go both ways, a missing file reads as null (the core then
// knows a create from a failure), and writes create the parent folders.
// With `workspaceEdit: vscode`, changes go through a WorkspaceEdit so open
// editors, dirty buffers and undo see them (files are then left unsaved).

const encoder = new TextEncoder();

/** Each segment of a relative path, refused when it could leave the root. */
function segments(path) {
  if (typeof path !== 'string' || path === '') throw new TypeError('editblocks: vscodeHost needs a non-empty relative path');
  const parts = path.split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('\\') || part.includes('\0')) {
      throw new Error(`editblocks: vscodeHost refuses the path ${JSON.stringify(path)}: it must be relative to the root, '/'-separated, without '.', '..' or empty segments`);
    }
  }
  return parts;
}

/** Whether `e` is VS Code's FileSystemError for a missing file. */
function isNotFound(e) {
  if (e == null) return false;
  if (e.code === 'FileNotFound' || e.code === 'EntryNotFound') return true;
  // A provider's error can arrive with only its name set (e.g. "EntryNotFound (FileSystemError)").
  return typeof e.name === 'string' && /\b(FileNotFound|EntryNotFound)\b/.test(e.name);
}

function checkOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new TypeError('editblocks: vscodeHost options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'workspaceEdit') throw new TypeError(`editblocks: vscodeHost does not know the option ${JSON.stringify(key)}; the one option is workspaceEdit`);
  }
  const api = options.workspaceEdit;
  if (api === undefined || api === null || api === false) return {};
  if (typeof api !== 'object' || typeof api.WorkspaceEdit !== 'function' || typeof api.Range !== 'function' || api.workspace == null ||
      typeof api.workspace.applyEdit !== 'function' || typeof api.workspace.openTextDocument !== 'function') {
    throw new TypeError('editblocks: vscodeHost options.workspaceEdit must be the vscode module (import * as vscode from \'vscode\'), for WorkspaceEdit, Range and workspace.applyEdit');
  }
  return { api };
}

/**
 * A FileHost over `fs` (VS Code's `workspace.fs`) rooted at `rootUri`.
 * Options: `{ workspaceEdit: vscode }` applies changes through
 * `vscode.workspace.applyEdit`, so the editor's undo stack and unsaved
 * buffers see them; reads then come from open documents first.
 */
export function vscodeHost(fs, rootUri, options) {
  if (fs == null || typeof fs.readFile !== 'function' || typeof fs.writeFile !== 'function') {
    throw new TypeError('editblocks: vscodeHost needs VS Code\'s workspace.fs (with readFile and writeFile) as its first argument');
  }
  if (rootUri == null || typeof rootUri.with !== 'function' || typeof rootUri.path !== 'string') {
    throw new TypeError('editblocks: vscodeHost needs the root folder as a vscode.Uri (e.g. workspace.workspaceFolders[0].uri) as its second argument');
  }
  const { api } = checkOptions(options);
  const base = rootUri.path.endsWith('/') ? rootUri.path.slice(0, -1) : rootUri.path;
  const uriOf = (path) => rootUri.with({ path: `${base}/${segments(path).join('/')}` });
  const parentOf = (path) => {
    const parts = segments(path);
    return parts.length > 1 ? rootUri.with({ path: `${base}/${parts.slice(0, -1).join('/')}` }) : null;
  };
  const bytes = (content) => (typeof content === 'string' ? encoder.encode(content) : content);
  // Files read as missing: their folders may need creating before the write.
  const missing = new Set();
  const openDocument = (uri) => {
    const docs = api && api.workspace.textDocuments;
    if (!docs) return undefined;
    const key = uri.toString();
    return docs.find((d) => d.uri.toString() === key);
  };

  async function readFile(path) {
    const uri = uriOf(path);
    const doc = openDocument(uri);
    if (doc) return doc.getText(); // what the user sees, saved or not
    try {
      const data = await fs.readFile(uri);
      missing.delete(path);
      return data;
    } catch (e) {
      if (isNotFound(e)) {
        missing.add(path);
        return null;
      }
      throw e;
    }
  }

  async function writeThroughFs(path, content) {
    const uri = uriOf(path);
    const parent = parentOf(path);
    if (parent && missing.has(path) && typeof fs.createDirectory === 'function') await fs.createDirectory(parent);
    await fs.writeFile(uri, bytes(content));
    missing.delete(path);
  }

  async function writeThroughEdit(path, content) {
    const uri = uriOf(path);
    const edit = new api.WorkspaceEdit();
    if (missing.has(path)) {
      edit.createFile(uri, { overwrite: true, contents: bytes(content) });
    } else {
      const doc = await api.workspace.openTextDocument(uri);
      const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
      edit.replace(uri, new api.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    }
    if (!(await api.workspace.applyEdit(edit))) throw new Error(`VS Code did not apply the edit to ${path}`);
    missing.delete(path);
  }

  async function deleteFile(path) {
    const uri = uriOf(path);
    if (api) {
      const edit = new api.WorkspaceEdit();
      edit.deleteFile(uri, { ignoreIfNotExists: true });
      if (!(await api.workspace.applyEdit(edit))) throw new Error(`VS Code did not delete ${path}`);
    } else {
      if (typeof fs.delete !== 'function') throw new Error('workspace.fs has no delete()');
      await fs.delete(uri, { recursive: false, useTrash: false });
    }
    missing.add(path);
  }

  return { readFile, writeFile: api ? writeThroughEdit : writeThroughFs, deleteFile };
}
