import type { Section, Format } from './parser.js';
import type { FileHost } from './apply.js';

/** Where a streaming block stands in its file (exact, whole-line matching). */
export type PreviewState =
  /** No old line written yet. */
  | { state: 'waiting' }
  /** The old lines so far occur at `count` places (`lines`: the first ten, 1-based). */
  | { state: 'searching'; count: number; lines: number[] }
  /** Exactly one place: the old text starts at file line `line`. */
  | { state: 'located'; line: number }
  /** The old text is complete and occurs at each of `lines`; `reason` is validateEdit's. */
  | { state: 'ambiguous'; lines: number[]; reason: string }
  /** The old text stopped matching at its line `since` (0: the file itself: missing, binary, exists, path refused). */
  | { state: 'no-match'; since: number; errorKind: string; reason: string }
  /** The block creates a file. */
  | { state: 'create' }
  /** The patch operation deletes the file. */
  | { state: 'delete' }
  /** Drawn, not located: the incremental render of a stream made without options.preview (seen in its HTML; preview() is null). */
  | { state: 'unlocated' };

/**
 * What `EditStream.preview()` returns: the open block's (or the last block's) state. For a patch
 * operation (`apply-patch`, `unified-diff`) the state is the open section's, and `section` is its
 * 1-based number; once the operation completes, its final state is the patch applier's verdict.
 */
export type BlockPreviewState = PreviewState & {
  /** The block's file (the name results use). */
  path: string;
  /** @deprecated use path (the same value) */
  filePath: string;
  lineNumber: number;
  section?: number;
};

/** Events a stream with `options.preview` adds, right after the update that made them true (at most one of each per block). */
export type PreviewEvent =
  | {
      type: 'block-located';
      path: string;
      /** @deprecated use path (the same value) */
      filePath: string;
      line: number;
      lineNumber: number;
    }
  | {
      type: 'block-unmatched';
      path: string;
      /** @deprecated use path (the same value) */
      filePath: string;
      /** Reply line of the block's path line. */
      lineNumber: number;
      errorKind: string;
      /** What a model would be told (validateEdit's reason for the lines so far). */
      reason: string;
      /** Line of the old text where it stopped matching (0: the file, or ambiguity). */
      since: number;
      /** Candidate file lines when ambiguous. */
      lines?: number[];
    };

export interface PreviewOptions {
  /** The files' current content by path (an object or a Map). */
  files?: Record<string, string | Uint8Array | null> | Map<string, string | Uint8Array | null>;
  /** Or a host to read them from (sync or async readFile; with an async one the events come with a later feed). */
  host?: Pick<FileHost, 'readFile'>;
}

/** What changed in the open block since the last `pendingDelta()`. */
export interface PendingDelta {
  filePath: string;
  format?: Format;
  lineNumber: number;
  /** A new block began since the last call: start over. */
  reset: boolean;
  /** Lines added since the last call, by section (an empty `lines` announces a new section). */
  added: { section: Section; lines: string[] }[];
  /** The line being typed. */
  partialLine: string;
}

/** What changed in the preview's HTML since the last incremental render; apply it with `applyPreviewDelta`. */
export interface PreviewHtmlDelta {
  /** The whole preview: replace the container's content. */
  reset?: string;
  /** The new `.eb-preview-header` (outerHTML). */
  header?: string;
  /** Rows to append to `.eb-preview-rows`. */
  append?: string;
  /** Rows to swap: `[data-row value, outerHTML]`. */
  replace?: [string, string][];
  /** New content of `.eb-preview-partial`. */
  partial?: string;
  /** New content of `.eb-preview-below`. */
  below?: string;
}

/**
 * The element holding the preview: any DOM `Element`. Typed by what is used, so these types also
 * compile where the DOM library is not loaded (a web worker, a VS Code extension, Node).
 */
export interface PreviewContainer {
  innerHTML: string;
  querySelector(selectors: string): unknown;
  insertAdjacentHTML(position: 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend', html: string): void;
}

/**
 * Applies an incremental render to `container`, the element holding the preview (browsers).
 * `null` (no block open: the last one finished or was discarded) empties it, as the full
 * render's `''` would: draw the finished block with renderEditBlock.
 */
export function applyPreviewDelta(container: PreviewContainer, delta: PreviewHtmlDelta | null): void;

/** The preview of one edit fed by hand (e.g. str_replace / edit_file arguments as they stream). */
export class EditPreview {
  constructor(filePath: string, content: string | Uint8Array | null | undefined);
  /** Complete lines of the old text; returns the events they made true. */
  pushOld(lines: string[] | string): PreviewEvent[];
  /** Complete lines of the new text. */
  pushNew(lines: string[] | string): PreviewEvent[];
  takeEvents(): PreviewEvent[];
  state(): PreviewState & {
    path: string;
    /** @deprecated use path (the same value) */
    filePath: string;
  };
  /** The file with the new lines so far, or null while not located. */
  content(): string | null;
  render(partialLine?: string, options?: { incremental?: false; theme?: 'light' | 'dark' | 'auto' }): string;
  render(partialLine: string | undefined, options: { incremental: true; theme?: 'light' | 'dark' | 'auto' }): PreviewHtmlDelta;
  free(): void;
}

/** Options of `new ToolCallPreview(…)`. */
export interface ToolCallPreviewOptions extends PreviewOptions {
  /** The tool's name: 'edit_file', 'str_replace_based_edit_tool', 'str_replace_editor', 'replace', … */
  name: string;
}

/** A tool-call preview's state: the edit being written (or the last one). */
export type ToolCallPreviewState = PreviewState & {
  /** The edit's path, once read from the arguments. */
  path?: string;
  /** @deprecated use path (the same value) */
  filePath?: string;
  /** Index of the edit in a batched `edits` list. */
  edit?: number;
};

/** A tool-call preview's events: as a stream's, without the reply line. */
export type ToolCallPreviewEvent =
  | {
      type: 'block-located';
      path: string;
      /** @deprecated use path (the same value) */
      filePath: string;
      line: number;
    }
  | {
      type: 'block-unmatched';
      path: string;
      /** @deprecated use path (the same value) */
      filePath: string;
      errorKind: string;
      reason: string;
      since: number;
      lines?: number[];
    };

/**
 * The live preview of a tool call whose arguments stream (OpenAI `function_call_arguments.delta`,
 * Anthropic `input_json_delta`): feed the argument JSON in chunks of any size.
 *
 * Items of a batched `edits` list are judged together, so a call costs its file plus its edits. In a
 * file of 64 KiB or more, items wait until their text is 1/32 of the file (or the arguments end),
 * so their events come in groups; the final events, states and content are the same in any chunking.
 */
export class ToolCallPreview {
  constructor(options: ToolCallPreviewOptions);
  /** A chunk of the arguments' JSON; returns the events it made true. */
  feed(chunk: string): ToolCallPreviewEvent[];
  /** The arguments ended. */
  finish(): ToolCallPreviewEvent[];
  preview(): ToolCallPreviewState;
  /** The file with the new text so far, or null while not located. */
  previewContent(): string | null;
  free(): void;
}
