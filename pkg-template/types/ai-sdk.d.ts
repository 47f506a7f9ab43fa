// editblocks/ai-sdk: the edit tools as Vercel AI SDK tools (`ai` is a peer dependency).
import type { Tool } from 'ai';
import type { FileHost } from './apply.js';
import type { EditSession } from './tools.js';

/** The tools editTools offers: the text editor's commands, one tool each, and OpenAI's V4A apply_patch. */
export type EditToolName = 'view' | 'create' | 'str_replace' | 'insert' | 'undo_edit' | 'apply_patch';

/** Each tool's input, named as the Anthropic text editor names its arguments; paths relative to the host's root. */
export interface EditToolInputs {
  view: { path: string; view_range?: [number, number] };
  create: { path: string; file_text: string };
  str_replace: { path: string; old_str: string; new_str?: string };
  insert: { path: string; insert_line: number; new_str: string };
  undo_edit: { path: string };
  apply_patch: { patch: string };
}

/**
 * What a tool's execute returns: ok false when the edit was refused (nothing
 * written); output is the answer in the wording of the provider tool (on a
 * refusal the retry text: the current lines, or the candidates); diff the
 * unified diff of what changed ('' when nothing did). The model is sent
 * output then diff, as text (as an error text when ok is false).
 */
export interface EditToolOutput {
  ok: boolean;
  output: string;
  diff: string;
}

export interface EditToolsOptions<N extends EditToolName = EditToolName> {
  /** The history undo_edit goes back through (one per conversation); a new one when absent. */
  session?: EditSession;
  /** Answer edits with their diff; write nothing. */
  dryRun?: boolean;
  /** Offer view only. */
  readOnly?: boolean;
  /** Version-control folders writes may go into, named exactly (such as .git/info). */
  allowFolders?: string[];
  /** Only these tools. */
  tools?: N[];
}

export type EditTools<N extends EditToolName = EditToolName> = { [K in N]: Tool<EditToolInputs[K], EditToolOutput> };

/**
 * The edit tools as AI SDK tool() definitions keyed by name (pass them as
 * generateText / streamText's `tools`), each executing through `host`
 * (nodeHost(root), or any FileHost) with applyToolCalls.
 */
export function editTools<N extends EditToolName = EditToolName>(host: FileHost, options?: EditToolsOptions<N>): EditTools<N>;
