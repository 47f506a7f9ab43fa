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

export interface RenderEditBlockOptions {
  /** Pick the result whose `blockIndex` is this (else: same file and previews, then same file). */
  index?: number;
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
export function renderInProgressEditBlock(filePath: string, partialLines?: string[] | string): string;
/** The same, drawn straight from `EditStream.pending()`. */
export function renderInProgressEditBlock(pending: PendingBlock): string;
/**
 * The open block of a stream made with `options.preview`, drawn in place in its file: real line
 * numbers, context above and below, changed spans, the state ('' when no block is open).
 */
export function renderInProgressEditBlock(stream: EditStream, options?: { incremental?: false }): string;
/**
 * Only what changed since the last call (null when no block is open); apply it with applyPreviewDelta.
 * On a stream made without options.preview the block is drawn without being located.
 */
export function renderInProgressEditBlock(stream: EditStream, options: { incremental: true }): PreviewHtmlDelta | null;

export interface RenderSummaryOptions {
  /** Show the retry note though only results were passed (an ApplyResult says so itself with `retryPrompt`). */
  retryPromptPrepared?: boolean;
  /** The retry note's wording. */
  retryNote?: string;
}

/**
 * HTML for the summary banner (`.eb-summary`, with `data-applied`,
 * `data-failed`, `data-skipped`, …): counts, modified files, failures with
 * reasons, files added to context, suggested shell commands, and the retry note.
 * Takes the results, or what applyEdits or applyToolCalls returned.
 */
export function renderEditsSummary(results: RenderableResult[] | ApplyResult | ToolApplyResult, options?: RenderSummaryOptions): string;

export interface RenderFileChangeOptions {
  /** Adds the status badge ('applied' after a real run, 'validated' after a dry run, …). */
  status?: Status;
}

/**
 * HTML for one entry of any result's `fileChanges` (text blocks, patches, tool
 * calls, hashline calls), drawn as renderEditBlock draws a block: the diff of
 * the whole file before and after, numbered by file line. A created file is
 * tagged `new file`.
 */
export function renderFileChange(change: FileChange, options?: RenderFileChangeOptions): string;
