import type { FileHost } from './apply.js';

export interface NodeHostOptions {
  /**
   * Staging with `git add`: 'auto' (default) stages when root is inside a git work tree,
   * true always stages (and fails outside one), false never stages. The repository is found
   * when the host is created and every git command names it (--git-dir, --work-tree), with
   * core.fsmonitor and hooks off: a folder a reply shaped like a repository is never used.
   */
  git?: boolean | 'auto';
  /**
   * The folder for nodeHost's journal and locks (default: $EDITBLOCKS_STATE_DIR, else
   * $XDG_STATE_HOME/editblocks or ~/.local/state/editblocks, else a private folder in the temp
   * folder). It must be a folder owned by this user that others cannot write to.
   */
  stateDir?: string;
  /**
   * true (default): a new file's bytes, and the journal's record of what a run replaces, reach
   * the disk (fsync) before the rename that puts them in place, so a power cut leaves the old
   * or the new file, never an empty one. false: the same atomic rename without waiting for the
   * disk, as editors write (about 1 ms less per file on an SSD): a killed process still leaves
   * the old or the new file, but a power cut right after a write may leave an empty one.
   */
  flush?: boolean;
  /**
   * 'check-paths' uses the portable walk (real paths checked before and after each step) even
   * where /proc/self/fd is available; for tests of platforms without it.
   */
  race?: 'check-paths';
}

/** A FileHost over a real folder: confined to the root without races, atomic writes, no lost updates, a crash journal (docs/applying.md in the repository, "nodeHost is safe against the other processes"). */
export interface NodeFileHost extends FileHost {
  /** The root's real path. */
  readonly root: string;
  /**
   * What creating this host did about calls killed midway in this root (rolled back, left alone
   * because changed since), one sentence each; empty when there was nothing to do.
   */
  readonly recovery: string[];
  /** Where `git add` runs (the repository found when the host was created), or why nothing is staged. */
  readonly staging: string;
  /**
   * Replaces the file atomically. Refused (code 'EDITBLOCKS_REPOSITORY_SHAPE') when its folder
   * would then hold HEAD, config and objects/, which git reads as a repository.
   */
  writeFile(path: string, content: string | Uint8Array): void;
  /** Deletes the file; a symbolic link is removed itself, never the file it leads to. */
  deleteFile(path: string): void;
  realPath(path: string): string;
  beginChanges(paths: string[]): void;
  endChanges(): void;
  stage(paths: string[]): void;
}

/**
 * Node only: a host confined to `root` without following links out of it, even when another
 * process swaps folders meanwhile; atomic writes that never replace a file changed since it was
 * read (errors with code 'EDITBLOCKS_PATH_ESCAPE' / 'EDITBLOCKS_FILE_CHANGED'); a journal that
 * lets the next nodeHost roll back a call killed midway; optional git staging.
 */
export function nodeHost(root: string, options?: NodeHostOptions): NodeFileHost;
