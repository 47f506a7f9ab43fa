import type { PreviewEvent, PreviewOptions, PreviewState, BlockPreviewState, PendingDelta } from './preview.js';
export type Format = 'edit-repl' | 'anchored' | 'search-replace' | 'apply-patch' | 'unified-diff';

/** One hunk (`@@` section) of a patch block. Every line starts with ' ' (context), '-' (removed) or '+' (added). */
export interface Hunk {
  /** apply-patch: the text of each `@@ …` line before the section, outermost first. */
  anchors?: string[];
  /** unified-diff: the `@@ -l,n +l,n @@` numbers, when written. */
  oldStart?: number;
  oldCount?: number;
  newStart?: number;
  newCount?: number;
  lines: string[];
  /** `*** End of File`: the section ends the file. */
  endOfFile?: boolean;
  /** `\ No newline at end of file` after an old-side / new-side line. */
  noNewlineOld?: boolean;
  noNewlineNew?: boolean;
}

/** One edit, as the model wrote it. Text fields are lines joined by '\n', no final newline; '' means none. */
export interface EditBlock {
  format: Format;
  filePath: string;
  /** Leading context: the common prefix (edit-repl) or the leading anchor (anchored); '' for search-replace. */
  anchor: string;
  oldLines: string;
  newLines: string;
  /** The trailing anchor (anchored only), else ''. */
  trailingAnchor: string;
  /** The block as written, from its path line to its end marker (CRLF read as LF). */
  rawBlock: string;
  /** 1-based line of the path line in the reply (patch formats: of the operation's header line). */
  lineNumber: number;
  /**
   * What was assumed to read or apply this edit, when anything was (absent otherwise), so a UI can
   * show it. From the parser: 'path-from-previous-block' (prose stood before the block),
   * 'marker-repaired' (a trailing `>` or a missing space in a marker), 'cline-markers'
   * (`------- SEARCH` / `+++++++ REPLACE`), 'line-hint-header' (Roo Code's `:start_line:` header),
   * 'new-file-wrapper-stripped' (a new file's text came wrapped in its path line and a code fence).
   */
  assumed?: Assumed[];
  /** Roo Code's `:start_line:N`: only breaks ties between equal candidates, never moves an edit. */
  lineHint?: number;
  /**
   * Patch formats only (apply-patch, unified-diff): what the operation does. For these blocks
   * oldLines / newLines hold every hunk's old and new side joined in order, and rawBlock the
   * operation as written.
   */
  operation?: 'add' | 'delete' | 'update';
  /** Patch formats: the new path of a moved or renamed file. */
  moveTo?: string;
  /**
   * Unified diffs whose `---` line names another file than the `+++` line, with no rename lines
   * (`--- util.py` / `+++ helpers.py`): the `---` name. The diff edits the `+++` file; when that file
   * does not exist, the refusal names this one and says how to edit or rename it.
   */
  oldPath?: string;
  /** Patch formats: the hunks, in file order (an add: one hunk of '+' lines). */
  hunks?: Hunk[];
  /** Patch formats: which patch of the reply (0-based) the operation belongs to; a patch applies whole or not at all. */
  patch?: number;
}

/** Names of assumptions; the engine adds its own to EditResult.assumed. */
export type Assumed =
  | 'path-from-previous-block' | 'marker-repaired' | 'cline-markers' | 'line-hint-header'
  | 'new-file-wrapper-stripped'
  | 'line-hint-tie-break' | 'line-numbers-stripped' | 'wrapper-stripped' | 'blank-first-line-dropped'
  | 'unescaped' | 'path-resolved' | (string & {});

export interface ParseOptions {
  /** Formats to look for; all when omitted or empty. */
  formats?: Format[];
  /** Files the caller knows (root-relative): a line naming one is a path line even without `/` or an extension. */
  knownFiles?: string[];
}

/**
 * Section names: edit-repl `edit`, `repl`; anchored `anchor`, `old`, `new`, `trailing-anchor`;
 * search-replace `search`, `replace`; apply-patch and unified-diff `patch` (the operation's body lines as
 * written, with their ` `, `-`, `+` or `@@` prefix). The first section of a `««« EDIT` block is `edit` until the
 * next marker shows the format (for an anchored block those lines are its leading anchor).
 */
export type Section = 'edit' | 'repl' | 'anchor' | 'old' | 'new' | 'trailing-anchor' | 'search' | 'replace' | 'patch';

export type StreamEvent =
  /** A start marker after a usable path line. */
  | { type: 'block-start'; filePath: string; format?: Format; lineNumber: number }
  /** Only what is new: the lines appended to `section` (an empty `lines` announces a new section). */
  | { type: 'block-update'; format?: Format; section: Section; lines: string[] }
  /** The end marker arrived; `index` is the block's position in what parseEdits returns. */
  | { type: 'block-complete'; index: number; block: EditBlock; /** With options.preview: the block's final state. */ preview?: PreviewState }
  /** The block was dropped; `reason` names the line and what would fix it. */
  | { type: 'block-discarded'; filePath?: string; lineNumber: number; reason: string; preview?: PreviewState }
  /** With options.preview: block-located / block-unmatched. */
  | PreviewEvent;

export interface PendingBlock {
  filePath: string;
  format?: Format;
  lineNumber: number;
  /** Sections begun so far, in order; the last one is being written. */
  sections: { section: Section; lines: string[] }[];
  /** The current line, not yet terminated (it may still turn out to be a marker). */
  partialLine: string;
}

/** Every complete edit block in `text`, in order. */
export function parseEdits(text: string, options?: ParseOptions): EditBlock[];

/** The format of the first block in `text`, or 'none'. */
export function detectFormat(text: string): Format | 'none';

/** Incremental parser: any chunking gives exactly the blocks of parseEdits. */
export class EditStream {
  /** `preview`: locate each block in its file while it streams (see preview.d.ts). */
  constructor(options?: ParseOptions & { preview?: PreviewOptions });
  /** Reads a chunk (any split, even inside a marker or a surrogate pair). */
  feed(chunk: string): StreamEvent[];
  /** Ends the reply: an unclosed block is discarded with a reason. Releases the stream; feed() afterwards throws. */
  finish(): StreamEvent[];
  /** The block being written, or null. */
  pending(): PendingBlock | null;
  /** What changed in the open block since the last call (cost: the new text, not the block), or null. */
  pendingDelta(): PendingDelta | null;
  /** With options.preview: where the open (or last) block stands in its file; null without. */
  preview(): BlockPreviewState | null;
  /** With options.preview: the open block's file with the new lines so far (one pass over the file), or null. */
  previewContent(): string | null;
  /**
   * Releases the stream's wasm memory without finishing (a cancelled reply); later calls throw.
   * Not needed after finish(). `using stream = new EditStream()` calls it at the end of the scope.
   */
  free(): void;
  [Symbol.dispose](): void;
}

declare global {
  // For `[Symbol.dispose]` under a `lib` older than esnext.disposable (declared as lib and @types/node declare it).
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
