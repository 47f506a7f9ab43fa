// A VS Code web extension using editblocks: the command applies the edit
// blocks of the active editor's text (a model reply pasted there) to the
// first workspace folder. Changes go through a WorkspaceEdit, so the user
// sees them in open editors, can undo them, and saves when ready.
import * as vscode from 'vscode';
import { initSync, applyEdits, vscodeHost, type ApplyResult } from 'editblocks';

let ready: Promise<void> | undefined;

/** Loads the wasm once, from the bytes shipped in dist/web (no fetch next to a script in a worker). */
function load(context: vscode.ExtensionContext): Promise<void> {
  ready ??= (async () => {
    const wasm = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'editblocks_bg.wasm');
    initSync(await vscode.workspace.fs.readFile(wasm));
  })();
  return ready;
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('editblocksExample.applyReply', async (): Promise<ApplyResult | undefined> => {
      const editor = vscode.window.activeTextEditor;
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (!editor || !folder) {
        void vscode.window.showErrorMessage('editblocks: open a folder and an editor holding the reply first.');
        return undefined;
      }
      await load(context);
      const host = vscodeHost(vscode.workspace.fs, folder.uri, { workspaceEdit: vscode });
      const result = await applyEdits(editor.document.getText(), host);
      const count = (status: string) => result.results.filter((r) => r.status === status).length;
      const failures = result.results.filter((r) => r.status === 'failed').map((r) => `${r.path}: ${r.reason}`);
      const summary = `editblocks: ${count('applied')} applied, ${count('failed')} failed`;
      if (failures.length) void vscode.window.showWarningMessage(`${summary}. ${failures.join(' ')}`);
      else void vscode.window.showInformationMessage(summary);
      return result;
    }),
  );
}

export function deactivate(): void {}
