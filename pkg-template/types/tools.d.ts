import type { FileChange, FileHost } from './apply.js';

/** Which edit_file the model is offered (seed 002). Default 'search_replace_multi'. */
export type DiffMode = 'search_replace_multi' | 'search_replace' | 'anchored' | 'off';
export const DIFF_MODES: readonly DiffMode[];
/**
 * The providers' own edit tools: Anthropic's text editor (`text_editor` is
 * `text_editor_20250728`), Gemini CLI's replace and write_file, the hashline
 * read and edit tools, the Responses API's built-in apply_patch.
 */
export type ProviderTools = 'text_editor' | 'text_editor_20250124' | 'gemini_cli' | 'hashline' | 'apply_patch';
export const PROVIDER_TOOLS: readonly ProviderTools[];

/** The envelope each model API wants around a function definition. */
export type ToolSchemaApi = 'plain' | 'gemini' | 'openai' | 'openai-responses' | 'anthropic';

export type JsonSchema = { [key: string]: unknown };
/** A function's parameters: always an object schema. */
export interface ObjectSchema { type: 'object'; properties?: { [key: string]: unknown } | null; required?: string[] | null; [key: string]: unknown }

/** `api: 'plain'` (default). */
export interface PlainToolSchema { name: string; description: string; parameters: ObjectSchema }
/** `api: 'gemini'`: a `FunctionDeclaration` (JSON Schema in `parametersJsonSchema`, no `additionalProperties`). */
export interface GeminiToolSchema { name: string; description: string; parametersJsonSchema: ObjectSchema }
/** `api: 'openai'` (Chat Completions `tools`). */
export interface OpenAIToolSchema { type: 'function'; function: PlainToolSchema }
/** `api: 'openai-responses'`: a strict function tool (every property required, optional ones nullable). */
export interface OpenAIResponsesToolSchema { type: 'function'; name: string; description: string; parameters: ObjectSchema; strict: true }
/** The Responses API's built-in apply_patch tool (`toolSchemas('apply_patch', { api: 'openai-responses' })`). */
export interface OpenAIApplyPatchTool { type: 'apply_patch' }
/** `api: 'anthropic'` (Messages API `tools`). */
export interface AnthropicToolSchema { name: string; description: string; input_schema: ObjectSchema }
/** Anthropic's server-defined text editor (`toolSchemas('text_editor', { api: 'anthropic' })`). */
export interface AnthropicTextEditorTool { type: 'text_editor_20250728'; name: 'str_replace_based_edit_tool'; max_characters?: number }
export interface AnthropicTextEditorTool20250124 { type: 'text_editor_20250124'; name: 'str_replace_editor' }

export interface ToolSchemaOptions<A extends ToolSchemaApi | undefined = ToolSchemaApi | undefined> {
  api?: A;
  /** The Anthropic text editor's `max_characters` (how much of a file a view shows). */
  maxCharacters?: number;
}

/** write_file plus edit_file for the mode (none for 'off'), or a provider's own tools, wrapped for `api`. */
export function toolSchemas(diffMode?: DiffMode | Exclude<ProviderTools, 'apply_patch'>, options?: ToolSchemaOptions<'plain' | undefined>): PlainToolSchema[];
export function toolSchemas(diffMode: DiffMode | Exclude<ProviderTools, 'apply_patch'> | undefined, options: ToolSchemaOptions<'gemini'>): GeminiToolSchema[];
export function toolSchemas(diffMode: DiffMode | Exclude<ProviderTools, 'apply_patch'> | undefined, options: ToolSchemaOptions<'openai'>): OpenAIToolSchema[];
export function toolSchemas(diffMode: 'apply_patch', options: ToolSchemaOptions<'openai-responses'>): OpenAIApplyPatchTool[];
export function toolSchemas(diffMode: DiffMode | Exclude<ProviderTools, 'apply_patch'> | undefined, options: ToolSchemaOptions<'openai-responses'>): OpenAIResponsesToolSchema[];
export function toolSchemas(diffMode: 'text_editor', options: ToolSchemaOptions<'anthropic'>): AnthropicTextEditorTool[];
export function toolSchemas(diffMode: 'text_editor_20250124', options: ToolSchemaOptions<'anthropic'>): AnthropicTextEditorTool20250124[];
export function toolSchemas(diffMode: DiffMode | 'gemini_cli' | 'hashline' | undefined, options: ToolSchemaOptions<'anthropic'>): AnthropicToolSchema[];

/** Arguments as an object or JSON text. */
type Arguments = object | string;

/**
 * One call as the model made it, in the shape its SDK returns. Items of a
 * model's output that are not calls (messages, reasoning, text blocks or
 * parts) may be passed along: they are passed over.
 */
export type ToolCall =
  /** Plain: `{ name, arguments, id? }`. */
  | { name: string; arguments: Arguments; id?: string }
  /** OpenAI Chat Completions `message.tool_calls[i]`: function or custom tool calls. */
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } }
  /** OpenAI Responses `response.output[i]`. */
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string }
  | { type: 'custom_tool_call'; call_id: string; name: string; input: string; id?: string }
  | {
      type: 'apply_patch_call'; call_id: string; id?: string;
      operation: { type: 'create_file' | 'update_file'; path: string; diff: string } | { type: 'delete_file'; path: string };
    }
  /** A patch sent through the local shell tool: `["apply_patch", patch]` or `bash -lc "apply_patch <<'EOF' … EOF"`; nothing is run. */
  | {
      type: 'local_shell_call'; call_id: string; id?: string; status?: string;
      action: { type: 'exec'; command: string[]; working_directory?: string | null; [key: string]: unknown };
    }
  /** Anthropic `message.content[i]` (`input: unknown`, as the SDK types it). */
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  /** Gemini `response.functionCalls[i]`, or a part holding one. */
  | { name?: string; args?: Record<string, unknown>; id?: string }
  | { functionCall?: { name?: string; args?: Record<string, unknown>; id?: string } }
  /** Older envelopes: `{ function }` without a type, `{ name, input }`. */
  | { function: { name: string; arguments: Arguments } }
  | { name: string; input: unknown }
  /** Anything else of a model's output (a message, reasoning, a text block): passed over. */
  | { type: string };

/**
 * Keeps the history `undo_edit` goes back through, per file, for one
 * conversation: pass it to every applyToolCalls of that conversation.
 */
export class EditSession {
  constructor();
  /** How many earlier versions of `path` the session holds. */
  depth(path: string): number;
  /** Forgets the history of one file, or of every file. */
  clear(path?: string): void;
}

/** A host may list folders, for the text editor's `view` of a folder (nodeHost does). */
export interface ListingHost extends FileHost {
  /** Entries of folder `path` ('.' = the root), folders ending in '/'; null when it is no folder. */
  listDir?(path: string): readonly string[] | null | undefined | Promise<readonly string[] | null | undefined>;
}

export interface ToolApplyOptions {
  /** Check everything and write nothing; results say 'validated'. */
  dryRun?: boolean;
  /** Ask the host to stage the written and deleted files (host.stage, e.g. git add; default true, as in every style). */
  stage?: boolean;
  /** edit_file matching: 'tolerant' (default, the five passes) or 'exact' (the raw text, unique). */
  matching?: 'exact' | 'tolerant';
  /** 'preserve' (default): a file without a final newline keeps none. */
  trailingNewline?: 'preserve' | 'ensure';
  /** Folders inside version-control metadata that may be written, named exactly (e.g. ['.git/info']).
   *  Every other path with a .git, .hg, .svn, .bzr or .jj component (any spelling) is 'path-escape'.
   *  An entry with a `.`, `..` or empty component, or naming a version-control folder itself
   *  ('.git'), throws a RangeError naming it. */
  allowFolders?: string[];
  /** Let the text editor's `create` and apply_patch's `create_file` replace an existing file (default false). */
  overwrite?: boolean;
  /** Cut `view` and hashline `read` answers to this many characters. */
  maxCharacters?: number;
  /** The project root's absolute path as the model sees it (default: the host's `root`, which nodeHost has).
   *  A tool call's absolute path (a file, or a shell call's `workdir`) inside it is read from the root;
   *  anywhere else an absolute path is refused. */
  projectDir?: string;
  /** The conversation's edit session, for `undo_edit`. */
  session?: EditSession;
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
  /** What the model is told about this change, in the tool's own words. */
  output?: string;
  /** Running 0-based index of the change in the reply. */
  blockIndex: number;
  /** The normalised path. */
  path: string;
  /** @deprecated The old name of `path`: a non-enumerable alias, kept for one release. */
  readonly filePath?: string;
  status: 'applied' | 'validated' | 'failed' | 'skipped';
  errorKind?: 'anchor-not-found' | 'ambiguous' | 'overlap' | 'no-op' | 'malformed' | 'file-not-found' | 'binary'
    | 'encoding' | 'path-escape' | 'previous-failed' | 'atomic-aborted' | 'host-error' | 'file-changed' | string;
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
  /** The calls as received, `{ name, arguments, id? }`, string arguments parsed where they parse. */
  calls: { name: string; arguments: unknown; id?: string }[];
  /** One answer per call, with the call's id: what toolResultMessages sends back. */
  callResults: CallResult[];
  /** Files deleted (apply_patch delete_file, hashline delete, undo of a create). */
  filesDeleted: string[];
  /** Each file the calls changed, or in a dry run would change: its content before and after. */
  fileChanges: FileChange[];
}

/** The answer to one call. */
export interface CallResult {
  /** 0-based index among the calls (items that are not calls are not counted). */
  callIndex: number;
  /** The call's id as the API gave it (`id`, `call_id`); absent when it had none (Gemini's is optional). */
  id?: string;
  name: string;
  /** The API the call's shape belongs to. */
  api: ToolSchemaApi;
  /** 'local-shell': the Responses API's `local_shell_call` (a patch sent through the shell tool). */
  kind: 'function' | 'custom' | 'apply-patch' | 'local-shell';
  /** True when the call's changes applied (or validated), or it only read. */
  ok: boolean;
  /** The text for the model: the tool's answer, or what failed and how to fix it. */
  output: string;
}

/** Chat Completions: `{ role: 'tool', tool_call_id, content }` per call. */
export interface OpenAIToolMessage { role: 'tool'; tool_call_id: string; content: string }
/** Responses API input items answering each call. */
export type OpenAIResponsesToolOutput =
  | { type: 'function_call_output'; call_id: string; output: string }
  | { type: 'custom_tool_call_output'; call_id: string; output: string }
  | { type: 'apply_patch_call_output'; call_id: string; status: 'completed' | 'failed'; output: string }
  | { type: 'local_shell_call_output'; id: string; output: string };
/** Anthropic: one user message of tool_result blocks. */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }[];
}
/** Gemini: one user content of functionResponse parts. */
export interface GeminiToolResultContent {
  role: 'user';
  parts: { functionResponse: { id?: string; name: string; response: { output: string } | { error: string } } }[];
}
export interface PlainToolResult { id?: string; name: string; ok: boolean; output: string }

/** The messages answering each call of a result, per call id, in the API's own shape (default: the API the calls came in). */
export function toolResultMessages(result: Pick<ToolApplyResult, 'callResults'>, options: { api: 'openai' }): OpenAIToolMessage[];
export function toolResultMessages(result: Pick<ToolApplyResult, 'callResults'>, options: { api: 'openai-responses' }): OpenAIResponsesToolOutput[];
export function toolResultMessages(result: Pick<ToolApplyResult, 'callResults'>, options: { api: 'anthropic' }): AnthropicToolResultMessage[];
export function toolResultMessages(result: Pick<ToolApplyResult, 'callResults'>, options: { api: 'gemini' }): GeminiToolResultContent[];
export function toolResultMessages(result: Pick<ToolApplyResult, 'callResults'>, options: { api: 'plain' }): PlainToolResult[];
export function toolResultMessages(
  result: Pick<ToolApplyResult, 'callResults'>,
  options?: { api?: ToolSchemaApi },
): (OpenAIToolMessage | OpenAIResponsesToolOutput | AnthropicToolResultMessage | GeminiToolResultContent | PlainToolResult)[];

/** Applies a reply's calls in order, in memory; writes every changed file together, or nothing if any change fails. */
export function applyToolCalls(calls: readonly ToolCall[], host: ListingHost, options?: ToolApplyOptions): Promise<ToolApplyResult>;
/** As applyToolCalls, for a synchronous host. */
export function applyToolCallsSync(calls: readonly ToolCall[], host: ListingHost, options?: ToolApplyOptions): ToolApplyResult;

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
export function toolSystemPrompt(diffMode?: DiffMode | ProviderTools): string;
