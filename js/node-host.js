// nodeHost(root): a FileHost over a real folder, for Node agent backends.
//
// - Confined to root: every path is resolved against the root's real path,
//   and the real path of what is read, written or deleted (following
//   symlinks) must stay inside it.
// - Atomic writes: content goes to a temporary file in the same folder, then
//   is renamed over the target, so a crash never leaves half a file.
// - Parent folders are created as needed.
// - stage(paths) runs `git add -- paths` (literal paths; ignored files are
//   left unstaged) when root is inside a git work tree.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

let tempCounter = 0;

function isInside(root, target) {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * A FileHost reading and writing files under `root`.
 * options.git: 'auto' (default: stage when root is in a git work tree), true (always; fails
 * outside a repository) or false (never stage).
 */
export function nodeHost(root, options = {}) {
  if (typeof root !== 'string' || root === '') throw new TypeError('editblocks: nodeHost(root) needs the path of a folder');
  const gitMode = options.git === undefined ? 'auto' : options.git;
  let realRoot;
  try {
    realRoot = fs.realpathSync(path.resolve(root));
  } catch (e) {
    throw new Error(`editblocks: nodeHost root ${JSON.stringify(root)} does not exist (${e.code || e.message})`);
  }
  if (!fs.statSync(realRoot).isDirectory()) throw new Error(`editblocks: nodeHost root ${JSON.stringify(root)} is not a folder`);

  const refuse = (p, why) => new Error(`editblocks: refused ${JSON.stringify(p)}: ${why}`);

  // The absolute path for `p`, checked lexically and then against symlinks:
  // the deepest part that exists must resolve inside the root.
  function resolve(p) {
    if (typeof p !== 'string' || p === '' || p.includes('\0')) throw refuse(p, 'not a file path');
    if (path.isAbsolute(p)) throw refuse(p, 'absolute paths are outside the project root');
    const abs = path.resolve(realRoot, p);
    if (!isInside(realRoot, abs) || abs === realRoot) throw refuse(p, 'it leaves the project root');
    let probe = abs;
    const rest = [];
    for (;;) {
      let real;
      try {
        real = fs.realpathSync(probe);
      } catch (e) {
        if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw e;
        // A dangling symlink still points somewhere: check where.
        let link = null;
        try {
          link = fs.readlinkSync(probe);
        } catch {}
        if (link !== null) {
          const to = path.resolve(path.dirname(probe), link);
          if (!isInside(realRoot, to)) throw refuse(p, 'a symbolic link leads outside the project root');
        }
        rest.unshift(path.basename(probe));
        probe = path.dirname(probe);
        continue;
      }
      if (!isInside(realRoot, real)) throw refuse(p, 'a symbolic link leads outside the project root');
      return rest.length ? path.join(real, ...rest) : real;
    }
  }

  let inGitTree = null;
  function gitWorkTree() {
    if (inGitTree === null) {
      try {
        inGitTree = execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: realRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() === 'true';
      } catch {
        inGitTree = false;
      }
    }
    return inGitTree;
  }

  return {
    root: realRoot,

    readFile(p) {
      const abs = resolve(p);
      try {
        const buf = fs.readFileSync(abs);
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (e) {
        if (e.code === 'ENOENT') return null;
        if (e.code === 'EISDIR') throw new Error(`${p} is a folder, not a file`);
        throw e;
      }
    },

    writeFile(p, content) {
      const abs = resolve(p);
      const dir = path.dirname(abs);
      fs.mkdirSync(dir, { recursive: true });
      // mkdir may have followed a symlinked folder: check again now that it exists.
      if (!isInside(realRoot, fs.realpathSync(dir))) throw refuse(p, 'a symbolic link leads outside the project root');
      let mode;
      try {
        mode = fs.statSync(abs).mode & 0o7777;
      } catch {}
      const tmp = path.join(dir, `.${path.basename(abs)}.editblocks-${process.pid}-${++tempCounter}.tmp`);
      try {
        const fd = fs.openSync(tmp, 'wx', mode ?? 0o666);
        try {
          fs.writeFileSync(fd, content);
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        if (mode !== undefined) fs.chmodSync(tmp, mode);
        fs.renameSync(tmp, abs);
      } catch (e) {
        try {
          fs.unlinkSync(tmp);
        } catch {}
        throw e;
      }
    },

    /**
     * The path `p` really names, relative to the root (symbolic links
     * followed), so two names for one file can be told apart from two files.
     */
    realPath(p) {
      return path.relative(realRoot, resolve(p)).split(path.sep).join('/');
    },

    deleteFile(p) {
      const abs = resolve(p);
      try {
        fs.unlinkSync(abs);
      } catch (e) {
        if (e.code !== 'ENOENT') throw e;
      }
    },

    stage(paths) {
      if (gitMode === false || !paths || paths.length === 0) return;
      if (gitMode === 'auto' && !gitWorkTree()) return;
      for (const p of paths) resolve(p);
      // Files the repository ignores are written but not staged: staging them
      // would need `git add -f`, which is the user's call, not ours.
      const ignored = new Set();
      try {
        // check-ignore has no literal mode; a leading './' keeps a name such
        // as ':(glob)**' from being read as pathspec magic.
        const out = execFileSync('git', ['check-ignore', '-z', '--stdin'], { cwd: realRoot, input: paths.map((p) => `./${p}`).join('\0'), stdio: ['pipe', 'pipe', 'pipe'] });
        for (const p of out.toString().split('\0')) if (p) ignored.add(p.replace(/^\.\//, ''));
      } catch (e) {
        // Exit status 1: none of the paths is ignored.
        if (e.status !== 1) throw new Error(`editblocks: git check-ignore failed in ${realRoot}: ${e.stderr ? e.stderr.toString().trim() : e.message}`);
      }
      const toStage = paths.filter((p) => !ignored.has(p));
      if (toStage.length === 0) return;
      try {
        // Literal pathspecs: a file named ':(glob)**' must stage that file only.
        execFileSync('git', ['--literal-pathspecs', 'add', '--', ...toStage], { cwd: realRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        const why = e.stderr ? e.stderr.toString().trim() : e.message;
        throw new Error(`editblocks: git add failed in ${realRoot}: ${why}`);
      }
    },
  };
}
