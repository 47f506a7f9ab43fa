import type { Assumed, EditBlock, Format } from './parser.js';

/** A filesystem the host supplies. Every method may return a value or a Promise. */
export interface FileHost {
  /**
   * The file's content; null or undefined when there is no such file. An error thrown with
   * `code: 'EDITBLOCKS_PATH_ESCAPE'` (the path leads outside the root, e.g. through a symbolic
   * link) makes the edits to it `skipped` / `path-escape`; any other error is `failed` / `host-error`.
   */
  readFile(path: string): string | Uint8Array | null | undefined | Promise<string | Uint8Array | null | undefined>;
  /**
   * Replaces the whole file (content is a Uint8Array only when restoring a file that was not UTF-8).
   * Throw an error with `code: 'EDITBLOCKS_FILE_CHANGED'` when the file no longer holds what
   * readFile returned: the driver restores what it wrote, reads again and re-runs the call once,
   * then reports the file's edits as `failed` / `file-changed`.
   */
  writeFile(path: string, content: string | Uint8Array): void | Promise<void>;
  /** Deletes the file; may throw `EDITBLOCKS_FILE_CHANGED` as writeFile does. */
  deleteFile?(path: string): void | Promise<void>;
  /** Called once before the first writeFile/deleteFile of a call, with every path it will change. */
  beginChanges?(paths: string[]): void | Promise<void>;
  /** Called after the last writeFile/deleteFile of a call (or after putting them back), before stage. */
  endChanges?(): void | Promise<void>;
  /** E.g. `git add`; called with the modified and created paths after writing. */
  stage?(paths: string[]): void | Promise<void>;
  /**
   * The path a name really refers to (symbolic links followed). When given, two names in one
   * call that reach the same file are refused instead of the second write undoing the first.
   */
  realPath?(path: string): string | Promise<string>;
  /**
   * The project's files, root-relative (nodeHost: `git ls-files`, untracked files git does not ignore
   * included). applyEdits uses them as `knownFiles` when the options give none.
   */
  listFiles?(): string[] | Promise<string[]>;
}

/**
 * What `applyEdits`, `applyToolCalls` and `applyHashlineEdit` (and their Sync
 * forms) throw when a host call fails while checked changes are carried out.
 * Files already written are restored (created ones deleted) before it is
 * thrown. A failed `stage` is not thrown: the result comes back with
 * `stageError`, since every file was written. `error instanceof HostFailureError`
 * works from `import` and `require`.
 */
export class HostFailureError<Result = ApplyResult> extends Error {
  constructor(message: string, fields?: { result?: Result; changed?: string[]; rolledBack?: string[]; notChanged?: string[]; cause?: unknown });
  name: 'HostFailureError';
  /**
   * The result (ApplyResult, ToolApplyResult or HashlineResult, after the function that threw) as the
   * files are left: an edit whose file was put back is `failed` / `host-error`, its reason naming the
   * host call, the file and the error; filesModified, filesCreated, filesDeleted and fileChanges list
   * only the files that could not be put back (they hold the new content).
   */
  result: Result;
  /** Paths that still hold new content (their restore failed too). */
  changed: string[];
  /** Paths that were written and then restored. */
  rolledBack: string[];
  /** Paths that are as they were before the call. */
  notChanged: string[];
}

export type Status = 'applied' | 'validated' | 'failed' | 'skipped' | 'not-in-context';

export type ErrorKind =
  | 'anchor-not-found' | 'ambiguous' | 'old-mismatch' | 'trailing-mismatch'
  | 'file-not-found' | 'file-exists' | 'binary' | 'path-escape' | 'previous-failed' | 'no-op'
  | 'atomic-aborted' | 'host-error' | 'encoding' | 'file-changed'
  | (string & {});

/** A file line near where a failed edit was aimed. */
export interface NearLine {
  /** 1-based line in the file. */
  line: number;
  text: string;
  /** 0 (nothing alike) to 1 (identical). */
  similarity: number;
}

/** Details that help a person or a model fix a failed edit. */
export interface Diagnostics {
  /** Which part did not match. */
  failedPart?: 'anchor' | 'old' | 'trailing';
  /** A whitespace-only difference, named: "tabs vs spaces: …", "trailing whitespace: …", "indentation depth: …". */
  whitespace?: string;
  /** The first line the edit has that the file does not, as written. */
  expectedLine?: string;
  /** The most similar lines in the file, best first. */
  nearest?: NearLine[];
  /** For ambiguous edits: how many places matched, and their 1-based first lines. */
  matchCount?: number;
  matchLines?: number[];
}

export interface EditResult {
  /** 0-based index of the block in the reply. */
  blockIndex: number;
  /** The normalised path (`path` in every style's results). */
  path: string;
  /** @deprecated The old name of `path`: a non-enumerable alias, kept for one release. */
  readonly filePath?: string;
  status: Status;
  errorKind?: ErrorKind;
  /** A sentence a model can act on: what was wrong, where, and what would fix it. */
  reason?: string;
  /** 1-based line where the edit was found or aimed. */
  estimatedLine?: number;
  /** First 50 characters of the first line of each section. */
  anchorPreview: string;
  oldPreview: string;
  newPreview: string;
  diagnostics?: Diagnostics;
  /** Which matching pass located the edit: 'exact', or a tolerant pass. */
  matchedBy?: 'exact' | 'trailing-whitespace' | 'whitespace' | 'boundary-prefix' | 'substring';
  /** What was assumed to read or place the edit (the block's own `assumed`, then the engine's, e.g. 'line-hint-tie-break'); absent when nothing was. */
  assumed?: Assumed[];
}

export interface ApplyResult {
  /** Set when every change was written but the host's stage (git add) failed: what failed and what to stage by hand. */
  stageError?: string;
  results: EditResult[];
  filesModified: string[];
  filesCreated: string[];
  /** Files a patch deleted (or moved away from); present only when there are some. */
  filesDeleted?: string[];
  /** Files edited without being in context (options.inContext); add them and ask again. */
  filesAutoAdded: string[];
  /** `git rm`, `git mv`, `mkdir -p`, `rm -rf` commands found in backticks in the reply. */
  shellSuggestions: string[];
  /** Prepared when some edits failed as ambiguous; never sent by us. */
  retryPrompt: string | null;
  /** Each file the call changed, or in a dry run would change: its content before and after. */
  fileChanges: FileChange[];
  /**
   * The blocks of a reply dropped while it was read (cut short, a path line that names no file, a patch
   * without its headers): nothing of them was applied. Present only when there are some.
   */
  discarded?: DiscardedBlock[];
}

/** A block of a reply dropped while the reply was read, as EditStream's `block-discarded` event tells it. */
export interface DiscardedBlock {
  /** The 1-based line of the reply where the block starts. */
  lineNumber: number;
  /** The file the block was for, when its path was read. */
  path?: string;
  /** What was wrong and what would fix it. */
  reason: string;
}

/**
 * One file's content before and after a call, the same for every edit style
 * (text blocks, patches, tool calls, hashline calls), in a dry run and a real
 * run. Contents are the full text as on disk: line endings, BOM and final
 * newline included. Show it with renderFileChange, or hand it to an editor.
 */
export interface FileChange {
  path: string;
  /** null: the file is created. */
  before: string | null;
  /** null: the file is deleted. */
  after: string | null;
  /** A rename: the old path (which no longer exists afterwards); `before` is that file's content. */
  movedFrom?: string;
}

export interface ApplyOptions {
  /** Validate only: statuses become 'validated', nothing is written. */
  dryRun?: boolean;
  /**
   * Files the caller knows (root-relative; default: host.listFiles() when the host has it). A reply is
   * read with them as parseEdits reads it (a line naming one is a path line even without a folder or an
   * extension). An edit to a file that does not exist goes to the one known file that fits (its folder
   * left out, or slightly misspelt), named 'path-resolved' in `assumed`; when several fit, it fails
   * listing them.
   */
  knownFiles?: string[];
  /** Call host.stage with every changed path after writing (default true, as in every style). */
  stage?: boolean;
  /** 'sequential' (default): later edits see earlier ones, a failure skips the rest of that file.
   *  'atomic': one failure writes nothing at all. */
  mode?: 'sequential' | 'atomic';
  /** 'exact' (default) or 'tolerant' (unique-only fallback passes; the result says which matched). */
  matching?: 'exact' | 'tolerant';
  /** Files the model has seen in full; edits to other files are 'not-in-context'. Creates are always attempted. */
  inContext?: string[];
  /** 'preserve' (default) keeps a missing final newline missing; 'ensure' always ends with one. */
  trailingNewline?: 'preserve' | 'ensure';
  /** Let a create block replace a non-empty existing file. */
  overwrite?: boolean;
  /** Formats to parse when the input is a reply (default: all). */
  formats?: Format[];
  /** Folders inside version-control metadata that may be written, named exactly (e.g. ['.git/info']).
   *  Every other path with a .git, .hg, .svn, .bzr or .jj component (any spelling) is 'path-escape'.
   *  An entry with a `.`, `..` or empty component, or naming a version-control folder itself
   *  ('.git'), throws a RangeError naming it. */
  allowFolders?: string[];
}

export interface Validation {
  ok: boolean;
  errorKind?: ErrorKind;
  reason?: string;
  estimatedLine?: number;
  diagnostics?: Diagnostics;
  matchedBy?: string;
  assumed?: Assumed[];
}

/** Parses (if given a reply) and applies every block through `host`. */
export function applyEdits(input: string | EditBlock[], host: FileHost, options?: ApplyOptions): Promise<ApplyResult>;
/** As applyEdits, for a host whose methods return plain values (a Promise from the host is a TypeError). */
export function applyEditsSync(input: string | EditBlock[], host: FileHost, options?: ApplyOptions): ApplyResult;
/** Applies one block to a file's content ('' for a new file). On failure the content comes back unchanged. */
export function applyToContent(block: EditBlock, content: string, options?: ApplyOptions): { content: string; result: EditResult };
/** Checks one block against a file's content. */
export function validateEdit(block: EditBlock, content: string, options?: ApplyOptions): Validation;
