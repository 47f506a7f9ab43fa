// LINE#ID anchored edits (seed 003).
import type { FileChange, FileHost } from './apply.js';

/** Options of the ID itself. */
export interface LineIdOptions {
  /** Characters per ID, 1 to 12 (default 3). Views and edits must use the same width. */
  width?: number;
}

/**
 * The ID of one line: the 64-bit FNV-1a hash of the line's UTF-8 bytes (line ending and
 * trailing whitespace dropped), mixed by MurmurHash3's fmix64, written from the top bits
 * down, 5 bits per character, in `0123456789abcdefghjkmnpqrstvwxyz`.
 */
export function lineId(line: string, options?: LineIdOptions): string;

export interface FormatHashlinesOptions extends LineIdOptions {
  /** First line shown, 1-based (default 1). */
  startLine?: number;
  /** Last line shown, inclusive (default: the last line). Clamped to the file. */
  endLine?: number;
}

/** The read view: `N#ID|content` per line, joined by '\n' (no final newline). */
export function formatHashlines(content: string, options?: FormatHashlinesOptions): string;

/** An anchor: `"LINE#ID"`, copied from the read view. */
export type LineRef = string;

export type HashlineOperation =
  | { target: LineRef; new_content: string[] | null }
  | { first: LineRef; last: LineRef; new_content: string[] | null }
  | { after: LineRef; before?: LineRef; inserted_lines: string[] }
  | { before: LineRef; after?: LineRef; inserted_lines: string[] }
  | { old_text: string; new_text: string; all?: boolean };

export interface HashlineCall {
  path: string;
  edits: HashlineOperation[];
  /** Delete the file (`edits` must be empty; not with `rename`). */
  delete?: boolean;
  /** Write the edited file to this path and remove the old one, in one step. */
  rename?: string;
}

export interface HashlineOptions extends LineIdOptions {
  /** Accept `{ old_text, new_text, all? }` operations (default false). */
  allowReplaceText?: boolean;
  /** Check everything, write nothing: status 'validated'. */
  dryRun?: boolean;
  /** Let `rename` replace an existing file. */
  overwrite?: boolean;
  /** Call host.stage with the paths written and deleted (default true, as in every style). */
  stage?: boolean;
  /** Folders inside version-control metadata that may be written, named exactly (e.g. ['.git/info']).
   *  Every other path with a .git, .hg, .svn, .bzr or .jj component (any spelling) is 'path-escape'.
   *  An entry with a `.`, `..` or empty component, or naming a version-control folder itself
   *  ('.git'), throws a RangeError naming it. */
  allowFolders?: string[];
}

export interface StaleLine {
  line: number;
  /** The anchor as sent. */
  sent: string;
  /** The line's current anchor. */
  current: string;
  text: string;
}

export interface HashlineResult {
  /** Set when every change was written but the host's stage (git add) failed: what failed and what to stage by hand. */
  stageError?: string;
  /** The file's path, normalised. */
  path: string;
  status: 'applied' | 'validated' | 'failed' | 'skipped';
  errorKind?:
    | 'stale-anchor' | 'line-out-of-range' | 'malformed' | 'overlap' | 'no-op' | 'anchor-not-found' | 'ambiguous'
    | 'file-not-found' | 'file-exists' | 'binary' | 'encoding' | 'path-escape' | 'host-error';
  /** Why the call was refused, in words a model can act on. */
  reason?: string;
  /** 0-based index of the operation at fault. */
  operation?: number;
  /** 1-based line at fault, or the first changed line. */
  line?: number;
  /** Anchors whose lines changed since the read. */
  stale?: StaleLine[];
  filesModified: string[];
  filesCreated: string[];
  filesDeleted: string[];
  /** What to send back to the model: the refusal, or a summary with the changed lines' new anchors. */
  message: string;
  /** The file's content before and after (a rename: `movedFrom`), in a dry run too; empty when refused. */
  fileChanges: FileChange[];
}

/** Applies one edit call; nothing is written unless every operation checks out. The host needs deleteFile for delete and rename. */
export function applyHashlineEdit(call: HashlineCall | string, host: FileHost, options?: HashlineOptions): Promise<HashlineResult>;
/** As applyHashlineEdit, for a host whose methods return values, not Promises. */
export function applyHashlineEditSync(call: HashlineCall | string, host: FileHost, options?: HashlineOptions): HashlineResult;
/** The hashline instructions for the model matching these options; systemPrompt('hashline') gives the defaults. */
export function hashlineSystemPrompt(options?: HashlineOptions): string;
