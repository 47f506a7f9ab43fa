import type { EditBlock, EditStream, PendingBlock } from './parser.js';
import type { PreviewHtmlDelta } from './preview.js';
import type { ApplyResult, EditResult, FileChange, Status } from './apply.js';
import type { ToolApplyResult } from './tools.js';

/** One line of a diff. */
export interface DiffLine {
  kind: 'context' | 'removed' | 'added';
  /** The line without its line ending. */
  text: string;
  /** 1-based line in the old text; null for an added line. */
  oldLine: number | null;
  /** 1-based line in the new text; null for a removed line. */
  newLine: number | null;
  /**
   * On a removed or added line paired with a similar line on the other side:
   * its unchanged and changed parts in order (they concatenate to `text`).
   * Cuts fall on grapheme boundaries, widened to whole words.
   */
  spans?: DiffSpan[];
}

export interface DiffSpan {
  text: string;
  changed: boolean;
}

/**
 * Line diff of two texts (lines split at `\n`; a final newline and `\r\n` are
 * line endings). Pairs of similar changed lines carry `spans`. Bounded by a
 * budget counted in work, not time, so the same texts give the same diff on
 * any machine: past it, the changed middle is one replaced run or the rest is
 * line-level, and `cutShort` (not enumerable) is `true`.
 */
export function diffBlock(oldText: string, newText: string): DiffLine[] & { readonly cutShort: boolean };

/**
 * A result as the renderers read it: every field but the path (`path`, or the older `filePath`) and `status` optional. An
 * `EditResult`, a tool call's `ToolChangeResult` and a hashline result's entries all are one.
 */
export type RenderableResult = Omit<Partial<EditResult>, 'errorKind' | 'diagnostics' | 'path' | 'filePath'> & ({ path: string; filePath?: string } | { filePath: string; path?: string }) & {
  status: string;
  errorKind?: string;
  diagnostics?: object;
};

/**
 * Which colours the rendered root takes with the package's style.css: `'light'` or `'dark'` put
 * the class `eb-light` / `eb-dark` on the root, whatever the system prefers; `'auto'` (the
 * default) follows `prefers-color-scheme` (or an ancestor's `eb-light` / `eb-dark`).
 */
export type RenderTheme = 'light' | 'dark' | 'auto';

/**
 * How a diff's rows are laid out: `'line-by-line'` (the default: removed lines, then the added
 * ones) or `'side-by-side'` (two columns, old and new; the root gets `eb-side-by-side` and each
 * row is an `.eb-line-pair` of `.eb-half-old` and `.eb-half-new`).
 */
export type RenderLayout = 'line-by-line' | 'side-by-side';

export interface RenderThemeOption {
  /** Default 'auto'. */
  theme?: RenderTheme;
}

export interface RenderEditBlockOptions extends RenderThemeOption {
  /** Pick the result whose `blockIndex` is this (else: same file and previews, then same file). */
  index?: number;
  /** Default 'line-by-line'. */
  layout?: RenderLayout;
}

/**
 * HTML for an edit block: `.eb-block` with a header (`.eb-path`, `.eb-badge`),
 * the failure reason (`.eb-reason`) and the diff (`.eb-diff` > `.eb-line`).
 * Clickable elements carry `data-action` (`open-file`, `show-edit`, `show-error`),
 * `data-file-path` and, when known, `data-line`. Everything is escaped.
 */
export function renderEditBlock(
  block: EditBlock,
  results?: RenderableResult[] | ApplyResult | RenderableResult | null,
  options?: RenderEditBlockOptions,
): string;

/**
 * HTML for a block still being written (`.eb-block.eb-block-pending`, with an
 * `.eb-cursor`). `partialLines`: the lines after the path line so far, markers
 * included or not; a string is split at line breaks.
 */
export function renderInProgressEditBlock(filePath: string, partialLines?: string[] | string, options?: RenderThemeOption): string;
/** The same, drawn straight from `EditStream.pending()`. */
export function renderInProgressEditBlock(pending: PendingBlock, options?: RenderThemeOption): string;
/**
 * The open block of a stream made with `options.preview`, drawn in place in its file: real line
 * numbers, context above and below, changed spans, the state ('' when no block is open).
 */
export function renderInProgressEditBlock(stream: EditStream, options?: { incremental?: false; theme?: RenderTheme }): string;
/**
 * Only what changed since the last call; apply it with applyPreviewDelta. `null` when no block is
 * open (the last one finished or was discarded): applyPreviewDelta then empties the container.
 * On a stream made without options.preview the block is drawn without being located. A new
 * `theme` redraws the whole preview (`reset`).
 */
export function renderInProgressEditBlock(stream: EditStream, options: { incremental: true; theme?: RenderTheme }): PreviewHtmlDelta | null;

export interface RenderSummaryOptions {
  /** Show the retry note though only results were passed (an ApplyResult says so itself with `retryPrompt`). */
  retryPromptPrepared?: boolean;
  /** The retry note's wording. */
  retryNote?: string;
  /** Default 'auto'. */
  theme?: RenderTheme;
}

/**
 * HTML for the summary banner (`.eb-summary`, with `data-applied`,
 * `data-failed`, `data-skipped`, …): counts, modified files, failures with
 * reasons, files added to context, suggested shell commands, and the retry note.
 * Takes the results, or what applyEdits or applyToolCalls returned.
 */
export function renderEditsSummary(results: RenderableResult[] | ApplyResult | ToolApplyResult, options?: RenderSummaryOptions): string;

export interface RenderFileChangeOptions extends RenderThemeOption {
  /** Adds the status badge ('applied' after a real run, 'validated' after a dry run, …). */
  status?: Status;
  /** Default 'line-by-line'. */
  layout?: RenderLayout;
  /**
   * Unchanged lines kept around each change (default 3); the others are folded. `'all'` draws the
   * whole file.
   */
  context?: number | 'all';
}

/**
 * HTML for one entry of any result's `fileChanges` (text blocks, patches, tool
 * calls, hashline calls), drawn as renderEditBlock draws a block: the diff of
 * the file before and after, numbered by file line. A created file is tagged
 * `new file`. By default only the changes and 3 lines around each are drawn:
 * each hunk opens with an `.eb-hunk` row (`@@ -l,n +l,n @@`, real line
 * numbers) and the unchanged lines between are folded into an `.eb-fold` row
 * (`data-action="expand"`, `role="button"`, with `data-old-line`,
 * `data-new-line` and `data-count` naming the lines it stands for: draw them
 * again with `context: 'all'` or a larger `context`).
 */
export function renderFileChange(change: FileChange, options?: RenderFileChangeOptions): string;

/**
 * One entry of a result's `fileChanges` as a unified diff (`diff -u`): `--- a/`
 * and `+++ b/` headers (`/dev/null` for a created or deleted file, the old
 * name of a moved file), hunks with `context` lines around each change
 * (default 3), `\ No newline at end of file` where a side has none. git and
 * patch apply it. `''` when nothing changed.
 */
export function unifiedDiff(change: FileChange, options?: { context?: number }): string;
