import type { FileHost } from './apply.js';

/** What vscodeHost needs of a `vscode.Uri` (structural, so this package does not depend on `@types/vscode`). */
export interface VscodeUriLike {
  readonly path: string;
  with(change: { path?: string }): VscodeUriLike;
  toString(): string;
}

/** What vscodeHost needs of `vscode.workspace.fs`. */
export interface VscodeFileSystemLike<U extends VscodeUriLike = VscodeUriLike> {
  readFile(uri: U): PromiseLike<Uint8Array>;
  writeFile(uri: U, content: Uint8Array): PromiseLike<void>;
  delete?(uri: U, options?: { recursive?: boolean; useTrash?: boolean }): PromiseLike<void>;
  createDirectory?(uri: U): PromiseLike<void>;
}

/** What vscodeHost needs of the `vscode` module to apply through a WorkspaceEdit. */
export interface VscodeEditApiLike {
  WorkspaceEdit: new () => {
    replace(uri: any, range: any, newText: string): void;
    createFile(uri: any, options?: { overwrite?: boolean; contents?: Uint8Array }): void;
    deleteFile(uri: any, options?: { ignoreIfNotExists?: boolean }): void;
  };
  Range: new (start: any, end: any) => any;
  workspace: {
    applyEdit(edit: any): PromiseLike<boolean>;
    openTextDocument(uri: any): PromiseLike<{ getText(): string; positionAt(offset: number): any }>;
    readonly textDocuments: readonly { readonly uri: { toString(): string }; getText(): string }[];
  };
}

export interface VscodeHostOptions {
  /**
   * Pass the `vscode` module to apply changes through `workspace.applyEdit` (a WorkspaceEdit):
   * open editors, unsaved buffers and undo see them, and changed files are left unsaved.
   * Reads then come from open documents first. Default: write through `workspace.fs`.
   */
  workspaceEdit?: VscodeEditApiLike;
}

/**
 * A host over VS Code's `workspace.fs` (desktop and web extensions) rooted at `rootUri`: paths
 * become Uris under the root (a path with `..`, `.` or empty segments is refused), a missing file
 * reads as null, a new file's folders are created, deletes go through `workspace.fs.delete`.
 */
export function vscodeHost<U extends VscodeUriLike>(fs: VscodeFileSystemLike<U>, rootUri: U, options?: VscodeHostOptions): FileHost;
