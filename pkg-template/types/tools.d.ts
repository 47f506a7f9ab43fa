import type { FileHost } from './apply.js';

/** Which edit_file the model is offered (seed 002). Default 'search_replace_multi'. */
export type DiffMode = 'search_replace_multi' | 'search_replace' | 'anchored' | 'off';
export const DIFF_MODES: readonly DiffMode[];

/** The envelope each model API wants around a function definition. */
export type ToolSchemaApi = 'plain' | 'gemini' | 'openai' | 'openai-responses' | 'anthropic';

/**
 * `api: 'plain'` (default) and `api: 'gemini'` (Gemini `functionDeclarations`:
 * the same shape, without `additionalProperties`, which Gemini rejects).
 */
export interface PlainToolSchema { name: string; description: string; parameters: JsonSchema }
/** `api: 'openai'` (Chat Completions `tools`). */
export interface OpenAIToolSchema { type: 'function'; function: PlainToolSchema }
/** `api: 'openai-responses'` (Responses API `tools`). */
export interface OpenAIResponsesToolSchema extends PlainToolSchema { type: 'function' }
/** `api: 'anthropic'` (Messages API `tools`). */
export interface AnthropicToolSchema { name: string; description: string; input_schema: JsonSchema }
export type JsonSchema = { [key: string]: unknown };

/** write_file, plus edit_file with the mode's schema (none for 'off'). */
export function toolSchemas(diffMode?: DiffMode, options?: { api?: 'plain' | 'gemini' }): PlainToolSchema[];
export function toolSchemas(diffMode: DiffMode | undefined, options: { api: 'openai' }): OpenAIToolSchema[];
export function toolSchemas(diffMode: DiffMode | undefined, options: { api: 'openai-responses' }): OpenAIResponsesToolSchema[];
export function toolSchemas(diffMode: DiffMode | undefined, options: { api: 'anthropic' }): AnthropicToolSchema[];

/**
 * One call as the model made it. `arguments` may be an object or a JSON
 * string. The envelopes of the APIs are accepted as they come:
 * `{ function: { name, arguments } }` (OpenAI), `{ name, input }`
 * (Anthropic tool_use), `{ name, args }` (Gemini).
 */
export type ToolCall =
  | { name: string; arguments: object | string }
  | { function: { name: string; arguments: object | string } }
  | { name: string; input: object }
  | { name: string; args: object };

export interface ToolApplyOptions {
  /** Check everything and write nothing; results say 'validated'. */
  dryRun?: boolean;
  /** Ask the host to stage the written files (host.stage, e.g. git add). */
  stage?: boolean;
  /** edit_file matching: 'tolerant' (default, the five passes) or 'exact' (the raw text, unique). */
  matching?: 'exact' | 'tolerant';
  /** 'preserve' (default): a file without a final newline keeps none. */
  trailingNewline?: 'preserve' | 'ensure';
  /** Folders inside version-control metadata that may be written, named exactly (e.g. ['.git/info']).
   *  Every other path with a .git, .hg, .svn, .bzr or .jj component (any spelling) is 'path-escape'. */
  allowFolders?: string[];
}

export type ToolMatchPass = 'exact' | 'trailing-whitespace' | 'whitespace' | 'boundary-prefix' | 'substring';

/** The result of one change: a write_file call, one edit, or one anchored change. */
export interface ToolChangeResult {
  /** 0-based index of the call in `calls`. */
  callIndex: number;
  /** 0-based index in the call's `edits` or `changes`; absent when the call is one change. */
  changeIndex?: number;
  /** The tool name as called. */
  tool: string;
  /** Running 0-based index of the change in the reply. */
  blockIndex: number;
  filePath: string;
  status: 'applied' | 'validated' | 'failed' | 'skipped';
  errorKind?: 'anchor-not-found' | 'ambiguous' | 'overlap' | 'no-op' | 'malformed' | 'file-not-found' | 'binary'
    | 'encoding' | 'path-escape' | 'previous-failed' | 'atomic-aborted' | 'host-error' | string;
  /** "call 2 (edit_file), edit 3, src/app.py: old_string is not unique (lines 12, 40); ..." */
  reason?: string;
  /** 1-based line where the change applied, or the best guess where it was aimed. */
  estimatedLine?: number;
  /** Which pass located an edit_file search/replace edit. */
  matchedBy?: ToolMatchPass;
  anchorPreview: string;
  oldPreview: string;
  newPreview: string;
  diagnostics?: {
    failedPart?: 'old' | 'start' | 'end';
    expectedLine?: string;
    nearest?: { line: number; text: string; similarity: number }[];
    matchCount?: number;
    matchLines?: number[];
  };
}

export interface ToolApplyResult {
  /** Set when every change was written but the host's stage (git add) failed: what failed and what to stage by hand. */
  stageError?: string;
  /** True when every change applied (or validated, in a dry run). When false, nothing was written. */
  ok: boolean;
  results: ToolChangeResult[];
  filesModified: string[];
  filesCreated: string[];
  /** One sentence per failed change, naming call, change, file and why. */
  errors: string[];
  /** The calls as received, `{ name, arguments }`, string arguments parsed where they parse. */
  calls: { name: string; arguments: unknown }[];
}

/** Applies a reply's calls in order, in memory; writes every changed file together, or nothing if any change fails. */
export function applyToolCalls(calls: ToolCall[], host: FileHost, options?: ToolApplyOptions): Promise<ToolApplyResult>;
/** As applyToolCalls, for a synchronous host. */
export function applyToolCallsSync(calls: ToolCall[], host: FileHost, options?: ToolApplyOptions): ToolApplyResult;

/**
 * The status column: '' unchanged, 'M' modified by the model, 'A' added by the
 * model, '~' local copy differs from context and no output, '~M' local copy
 * differs from context and the model has output (any, even unchanged): a conflict.
 * `local: undefined` = not known (same as context); `local: null` = no local file.
 */
export function fileStatus(state: { context?: string | null; local?: string | null; output?: string | null }): '' | 'M' | 'A' | '~' | '~M';

/** The `@retry_context` … `@end retry_context` block for a failed reply; '' when nothing failed. */
export function retryContext(result: Pick<ToolApplyResult, 'errors' | 'calls'> & Partial<ToolApplyResult>): string;

/** The system prompt for one diff mode; systemPrompt('tools') covers all modes. */
export function toolSystemPrompt(diffMode?: DiffMode): string;
