import type { FileHost } from './apply.js';

/**
 * Browsers and bundlers: loads the wasm module (fetched next to the package's
 * web/index.js unless you pass a URL, Response, bytes or WebAssembly.Module).
 * In Node this resolves at once: the module is ready on import.
 */
export function init(moduleOrPath?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<unknown>;

/** Loads the wasm module synchronously from its bytes (e.g. in a VS Code web worker). No-op in Node. */
export function initSync(module: BufferSource | WebAssembly.Module): unknown;

export interface NodeHostOptions {
  /**
   * Staging with `git add`: 'auto' (default) stages when root is inside a git work tree,
   * true always stages (and fails outside one), false never stages.
   */
  git?: boolean | 'auto';
}

/** Node only: a host confined to `root`, with atomic writes and optional git staging. */
export function nodeHost(root: string, options?: NodeHostOptions): FileHost;
