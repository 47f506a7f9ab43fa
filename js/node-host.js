// nodeHost(root): a FileHost over a real folder, for Node agent backends.
//
// - Confined to root, race-free: a path is walked one folder at a time from
//   the root, each folder opened without following symbolic links and the
//   next name looked up relative to that open folder (through
//   /proc/self/fd/N on Linux, Node having no openat). A link met on the way
//   is read and followed by hand only while it stays inside the root. Whatever
//   another process swaps in meanwhile, nothing is read, written, created or
//   deleted outside the root: the folder handle is the one that was checked.
//   Where /proc/self/fd is missing, the folder's real path is checked before
//   and after each step instead, failing closed.
// - Atomic writes: content goes to a temporary file in the same folder, then
//   is renamed over the target, so a crash never leaves half a file.
// - No lost updates: a file is replaced only if it still holds what readFile
//   returned (a file that was missing must still be missing); otherwise the
//   write throws an error with code EDITBLOCKS_FILE_CHANGED and the host
//   driver re-reads and re-runs once. Writers using nodeHost serialise that
//   check-and-rename through a lock file in the state folder.
// - Crash safety: before a file is replaced, a journal in the state folder
//   (outside the worktree) records its original bytes and the temporary
//   file's name; the next nodeHost for the same root rolls back an apply
//   that was killed midway and removes its temporaries.
// - Parent folders are created as needed; those a write made go again when
//   the write fails or is rolled back.
// - Deleting a symbolic link removes the link, never the file it leads to.
// - No write makes a folder hold HEAD, config and objects/ together (or HEAD
//   and commondir): git would take it for a repository and run what its
//   config names.
// - stage(paths) runs `git add -- paths` (literal paths; ignored files are
//   left unstaged) on the repository root was in when the host was created,
//   named explicitly (--git-dir, --work-tree), with no fsmonitor and no
//   hooks; outside a repository it stages nothing (`host.staging` says why).
// - Hard links are files like any other: a file hard-linked into the root
//   reads as its content (making the link needs the right to read it), and
//   a write replaces the name inside the root, so the other name keeps its
//   bytes.
import { fs, os, path, crypto, execFileSync } from './node-builtins.js';
// Whether a name is version-control metadata (`.git`, `.GIT.`, `git~1` …): the core's rule (src/path.rs).
import { isVcsFolderName } from 'editblocks-raw';
import { describeType, optionalString } from './boundary.js';

const C = fs.constants;
const O_NOFOLLOW = C.O_NOFOLLOW ?? 0;
const O_DIR = C.O_RDONLY | (C.O_DIRECTORY ?? 0) | O_NOFOLLOW;
const O_READ = C.O_RDONLY | O_NOFOLLOW | (C.O_NONBLOCK ?? 0);
const O_TEMP = C.O_WRONLY | C.O_CREAT | C.O_EXCL | O_NOFOLLOW;
const MAX_LINKS = 40;
const MAX_RETRIES = 100;
const LOCK_WAIT_MS = 5000;
const LOCK_STALE_MS = 30000;

let tempCounter = 0;
// Journals this process has open: recovery never touches them.
const openJournals = new Set();

const sha = (data) => crypto.createHash('sha256').update(data).digest('hex');

// Numbers the journals of this process: one counter for every host, as hosts of one root
// share its journal folder and may open journals within the same millisecond.
let journalCounter = 0;
const toBuffer = (content) => (typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength));
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function isInside(root, target) {
  const rel = path.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function codedError(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}

/** Whether `/proc/self/fd/N/name` reaches `name` inside the open folder N (Linux). */
let procFd = null;
function procFdWorks() {
  if (procFd !== null) return procFd;
  procFd = false;
  if (process.platform !== 'linux') return procFd;
  let fd;
  try {
    const dir = os.tmpdir();
    fd = fs.openSync(dir, O_DIR);
    procFd = fs.statSync(`/proc/self/fd/${fd}/.`).ino === fs.statSync(dir).ino;
  } catch {
    procFd = false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return procFd;
}

// The start time of a process (Linux), so a reused pid is not taken for the writer of a journal.
function processStart(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] || '';
  } catch {
    return '';
  }
}
const ownStart = processStart(process.pid);

function processAlive(pid, start) {
  if (pid === process.pid) return start === ownStart;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code === 'ESRCH') return false;
  }
  return !start || processStart(pid) === '' || processStart(pid) === start;
}

/**
 * The folder for journals and locks: options.stateDir, $EDITBLOCKS_STATE_DIR,
 * $XDG_STATE_HOME/editblocks (~/.local/state/editblocks; %LOCALAPPDATA%\editblocks
 * on Windows), else a private folder in the system temp folder. It must be a
 * real folder owned by this user that no one else can write to.
 */
function stateFolder(explicit) {
  const candidates = [];
  if (explicit) candidates.push(explicit);
  else {
    if (process.env.EDITBLOCKS_STATE_DIR) candidates.push(process.env.EDITBLOCKS_STATE_DIR);
    else {
      if (process.platform === 'win32' && process.env.LOCALAPPDATA) candidates.push(path.join(process.env.LOCALAPPDATA, 'editblocks'));
      const home = os.homedir();
      const xdg = process.env.XDG_STATE_HOME || (home ? path.join(home, '.local', 'state') : '');
      if (xdg) candidates.push(path.join(xdg, 'editblocks'));
      const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
      candidates.push(path.join(os.tmpdir(), `editblocks-${uid}`));
    }
  }
  const problems = [];
  for (const dir of candidates) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const st = fs.lstatSync(dir);
      if (!st.isDirectory()) throw new Error('it is not a folder');
      if (typeof process.getuid === 'function' && process.platform !== 'win32') {
        if (st.uid !== process.getuid()) throw new Error('another user owns it');
        if (st.mode & 0o022) throw new Error('others can write to it');
      }
      fs.mkdirSync(path.join(dir, 'journal'), { recursive: true, mode: 0o700 });
      fs.mkdirSync(path.join(dir, 'locks'), { recursive: true, mode: 0o700 });
      return fs.realpathSync(dir);
    } catch (e) {
      problems.push(`${dir}: ${e.message}`);
    }
  }
  throw new Error(`editblocks: nodeHost has no usable state folder for its journal (${problems.join('; ')}); pass options.stateDir or set EDITBLOCKS_STATE_DIR to a private folder`);
}

// Replaces `file` whole (a reader never sees half of it); `sync` also waits for the disk.
function writeDurable(file, data, sync = true) {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeFileSync(fd, data);
    if (sync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

// Settings every git command gets: no file system monitor and no hooks (a command either
// could name runs with the user's rights), and no repository found by discovery in a folder
// that merely looks like one (HEAD, config, objects/ written by a reply: a bare repository).
const PINNED_GIT = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'safe.bareRepository=explicit'];

/**
 * The git repository `root` is in, found once: { repository: { gitDir, workTree } } with
 * absolute paths, or { repository: null, stagingOff: why nothing is staged }.
 */
function findRepository(root) {
  let out;
  try {
    out = execFileSync('git', [...PINNED_GIT, 'rev-parse', '--path-format=absolute', '--git-dir', '--show-toplevel'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  } catch (e) {
    const why = e.stderr ? e.stderr.toString().trim().split('\n')[0] : e.message;
    return { repository: null, stagingOff: `nothing is staged: ${root} is not in a git work tree (${why})` };
  }
  const [gitDir, workTree] = out.split('\n');
  if (!gitDir || !workTree || !path.isAbsolute(gitDir) || !path.isAbsolute(workTree)) {
    return { repository: null, stagingOff: `nothing is staged: ${root} is not in a git work tree` };
  }
  return { repository: { gitDir, workTree }, stagingOff: null };
}

/**
 * A FileHost reading and writing files under `root`.
 * options.git: 'auto' (default: stage when root is in a git work tree), true (always; fails
 * outside a repository) or false (never stage). The repository is found once, here.
 * options.stateDir: where journals and locks live (see stateFolder).
 * options.flush: true (default): each new file's bytes, and the journal's record of what a
 * run replaces, reach the disk (fsync) before the rename that puts them in place, so that a
 * power cut leaves the old or the new file, never an empty one. false: the same atomic
 * rename without waiting for the disk, as editors write: a killed process still leaves the
 * old or the new file, but a power cut within seconds of a write may leave an empty one on
 * some file systems. About 1 ms less per written file on an SSD.
 */
export function nodeHost(root, options = {}) {
  if (typeof root !== 'string' || root === '') throw new TypeError('editblocks: nodeHost(root) needs the path of a folder');
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`editblocks: nodeHost: options must be an object, got ${describeType(options)}`);
  optionalString(options.stateDir, 'nodeHost', 'options.stateDir');
  if (options.flush !== undefined && typeof options.flush !== 'boolean') throw new TypeError(`editblocks: nodeHost: options.flush must be true or false, got ${describeType(options.flush)}`);
  const flush = options.flush !== false;
  const gitMode = options.git === undefined ? 'auto' : options.git;
  let realRoot;
  try {
    realRoot = fs.realpathSync(path.resolve(root));
  } catch (e) {
    throw new Error(`editblocks: nodeHost root ${JSON.stringify(root)} does not exist (${e.code || e.message})`);
  }
  if (!fs.statSync(realRoot).isDirectory()) throw new Error(`editblocks: nodeHost root ${JSON.stringify(root)} is not a folder`);
  const givenRoot = path.resolve(root);
  const state = stateFolder(options.stateDir);
  // Every root's journals share one folder; a root's files start with its hash, so recovery
  // reads only its own. (Making and removing a folder of its own per run cost as much as the
  // rest of the journal.) Earlier releases kept them in a folder named by the hash alone:
  // recovery still reads that one.
  const rootKey = sha(realRoot).slice(0, 24);
  const journalDir = path.join(state, 'journal');
  const journalPrefix = `${rootKey}.`;
  const legacyJournalDir = path.join(journalDir, rootKey);
  const useProc = options.race === 'check-paths' ? false : procFdWorks();
  const { repository, stagingOff } = gitMode === false ? { repository: null, stagingOff: 'staging is off (git: false)' } : findRepository(realRoot);

  const refuse = (p, why) => codedError('EDITBLOCKS_PATH_ESCAPE', `editblocks: refused ${JSON.stringify(p)}: ${why}`);
  const escapes = (p) => refuse(p, 'a symbolic link leads outside the project root');

  // ---- Walking a path without following links out of the root ----

  function lexicalParts(p) {
    if (typeof p !== 'string' || p === '' || p.includes('\0')) throw refuse(p, 'not a file path');
    if (path.isAbsolute(p) || path.win32.isAbsolute(p)) throw refuse(p, 'absolute paths are outside the project root');
    const abs = path.resolve(realRoot, p);
    if (!isInside(realRoot, abs) || abs === realRoot) throw refuse(p, 'it leaves the project root');
    // A backslash is a folder separator on Windows only; elsewhere it is part of a name.
    return p.split(process.platform === 'win32' ? /[\\/]/ : '/');
  }

  // Where an absolute link target lands, as parts relative to the root, or null when outside.
  function absoluteTarget(target) {
    for (const base of [realRoot, givenRoot]) {
      if (isInside(base, target)) return path.relative(base, target).split(path.sep);
    }
    // Another spelling of the root (a link above it): resolve the part that exists.
    let probe = target;
    const rest = [];
    for (;;) {
      try {
        const real = fs.realpathSync(probe);
        const full = path.join(real, ...rest);
        return isInside(realRoot, full) ? path.relative(realRoot, full).split(path.sep) : null;
      } catch {
        const up = path.dirname(probe);
        if (up === probe) return null;
        rest.unshift(path.basename(probe));
        probe = up;
      }
    }
  }

  /**
   * Walks `p` from the root. Returns the open folder chain and the last name:
   * { dir (path prefix for the folder), fds, names, name, rel, stat | null, missingParent }.
   * With `create`, missing folders are made. Symbolic links are read and
   * followed by hand while they stay inside the root; one leading out is a
   * path-escape error.
   */
  function walk(p, { create = false, keepLink = false } = {}) {
    let todo = lexicalParts(p);
    const fds = [];
    const names = [];
    // The folders this walk made ({ level, name }: names[level] inside fds[level]), removed
    // again when the walk or the write it serves fails.
    const made = [];
    let links = 0;
    const popFd = () => {
      const fd = fds.pop();
      if (useProc && fd !== undefined && fd >= 0) {
        try {
          fs.closeSync(fd);
        } catch {}
      }
    };
    const close = () => {
      while (fds.length) popFd();
    };
    const dirOf = () => (useProc ? `/proc/self/fd/${fds[fds.length - 1]}` : path.join(realRoot, ...names));
    // A name that changed kind between two looks (swapped while we looked) is looked at again, a few times.
    let retries = 0;
    const again = (part, e) => {
      if (++retries > MAX_RETRIES) throw e;
      todo.unshift(part);
    };
    // The core refused every path naming .git (unless the caller allowed that folder by name);
    // a symbolic link inside the root must not lead there either.
    const intoMetadata = (parts) => {
      if (links > 0 && parts.some(isVcsFolderName)) throw refuse(p, 'a symbolic link leads into version-control metadata (.git), where a write can run commands');
    };
    const follow = (at) => {
      if (++links > MAX_LINKS) throw refuse(p, 'too many levels of symbolic links');
      const target = fs.readlinkSync(at);
      if (path.isAbsolute(target)) {
        const parts = absoluteTarget(target);
        if (parts === null) throw escapes(p);
        // Start again from the root.
        while (fds.length > 1) popFd();
        names.length = 0;
        return parts;
      }
      return target.split('/');
    };
    // The name at `at` looked at without following it; null when nothing is there.
    const lstatOrNull = (at) => {
      try {
        return fs.lstatSync(at);
      } catch (e) {
        if (e.code !== 'ENOENT') throw e;
        return null;
      }
    };
    // Puts a symbolic link's target in front of what is left to walk; a link that
    // vanished or stopped being one while we read it is looked at again.
    const followLink = (at, part) => {
      let parts;
      try {
        parts = follow(at);
      } catch (e) {
        if (e.code !== 'EINVAL' && e.code !== 'ENOENT') throw e;
        again(part, e);
        return;
      }
      todo = [...parts, ...todo];
    };
    // A folder on the way does not exist (and is not to be made).
    const missingParent = (part) => {
      const rest = [...names, part, ...todo];
      intoMetadata(rest);
      return { dir: null, fds, names, name: part, rel: rest.filter((t) => t && t !== '.').join('/'), stat: null, missingParent: true, close };
    };
    try {
      fds.push(useProc ? fs.openSync(realRoot, O_DIR) : -1);
      while (todo.length) {
        const part = todo.shift();
        if (part === '' || part === '.') continue;
        if (part === '..') {
          if (names.length === 0) throw escapes(p);
          popFd();
          names.pop();
          continue;
        }
        const at = path.join(dirOf(), part);
        if (todo.every((t) => t === '' || t === '.')) {
          // The last name: a file (or nothing yet), looked at without following it.
          const stat = lstatOrNull(at);
          if (stat && stat.isSymbolicLink() && !keepLink) {
            followLink(at, part);
            continue;
          }
          intoMetadata([...names, part]);
          if (!useProc) checkFolder(p, names);
          return { dir: dirOf(), fds, names, name: part, rel: [...names, part].join('/'), stat, missingParent: false, made, close };
        }
        let fd = -1;
        if (useProc) {
          try {
            fd = fs.openSync(at, O_DIR);
          } catch (e) {
            if (e.code === 'ENOENT' && create) {
              try {
                fs.mkdirSync(at);
                made.push({ level: names.length, name: part });
              } catch (m) {
                if (m.code !== 'EEXIST') throw m;
              }
              try {
                fd = fs.openSync(at, O_DIR);
              } catch (again) {
                if (again.code !== 'ENOTDIR' && again.code !== 'ELOOP') throw again;
              }
            } else if (e.code === 'ENOENT') {
              return missingParent(part);
            } else if (e.code !== 'ENOTDIR' && e.code !== 'ELOOP') throw e;
          }
          if (fd === -1) {
            let parts = null;
            try {
              const st = fs.lstatSync(at);
              if (st.isSymbolicLink()) parts = follow(at);
              else if (st.isDirectory()) throw codedError('EAGAIN', `${[...names, part].join('/')} kept changing while it was looked at`);
            } catch (e) {
              if (e.code !== 'EINVAL' && e.code !== 'ENOENT' && e.code !== 'EAGAIN') throw e;
              again(part, e);
              continue;
            }
            if (parts === null) throw codedError('ENOTDIR', `ENOTDIR: ${[...names, part].join('/')} is not a folder`);
            todo = [...parts, ...todo];
            continue;
          }
        } else {
          const st = lstatOrNull(at);
          if (st && st.isSymbolicLink()) {
            followLink(at, part);
            continue;
          }
          if (!st) {
            if (!create) return missingParent(part);
            checkFolder(p, names);
            try {
              fs.mkdirSync(at);
              made.push({ level: names.length, name: part });
            } catch (m) {
              if (m.code !== 'EEXIST') throw m;
            }
          } else if (!st.isDirectory()) throw codedError('ENOTDIR', `ENOTDIR: ${[...names, part].join('/')} is not a folder`);
        }
        fds.push(fd);
        names.push(part);
        intoMetadata(names);
      }
      throw refuse(p, 'not a file path');
    } catch (e) {
      removeMadeFolders({ fds, names, made });
      close();
      throw e;
    }
  }

  // Removes the folders a walk made (deepest first) while its folder chain is open; one that
  // is no longer empty, or no longer where the walk made it, stays.
  function removeMadeFolders(w) {
    for (const { level, name } of [...w.made].reverse()) {
      // Made and then left by a failure before the walk stepped into it: names stops short of it.
      const there = level < w.names.length ? w.names[level] === name : level === w.names.length;
      if (!there || level >= w.fds.length) continue;
      try {
        if (useProc) fs.rmdirSync(`/proc/self/fd/${w.fds[level]}/${name}`);
        else {
          checkFolder(name, w.names.slice(0, level));
          fs.rmdirSync(path.join(realRoot, ...w.names.slice(0, level), name));
        }
      } catch {
        return;
      }
    }
    w.made.length = 0;
  }

  // Without /proc/self/fd: the folder reached by name must really be where the walk thinks.
  function checkFolder(p, names) {
    const want = path.join(realRoot, ...names);
    let real;
    try {
      real = fs.realpathSync(want);
    } catch (e) {
      if (e.code === 'ENOENT') return;
      throw e;
    }
    if (real !== want) throw escapes(p);
  }

  // The open folder must still be inside the root (it may have been moved away).
  function folderStillInside(p, w) {
    if (useProc) {
      const where = fs.readlinkSync(w.dir);
      if (!isInside(realRoot, where)) throw refuse(p, 'its folder was moved outside the project root while it was written');
    } else {
      checkFolder(p, w.names);
    }
  }

  // Fallback only: the temporary file found by name in the checked folder is the one we opened.
  function sameFile(p, w, name, st) {
    checkFolder(p, w.names);
    let there;
    try {
      there = fs.lstatSync(path.join(w.dir, name));
    } catch {
      throw escapes(p);
    }
    if (there.ino !== st.ino || there.dev !== st.dev) throw escapes(p);
    return st;
  }

  // What the file holds now, read without following a link: a Buffer, or null when absent.
  function currentBytes(w) {
    let fd;
    try {
      fd = fs.openSync(path.join(w.dir, w.name), O_READ);
    } catch (e) {
      if (e.code === 'ENOENT') return null;
      if (e.code === 'ELOOP') throw codedError('ELOOP', `${w.rel} became a symbolic link`);
      throw e;
    }
    try {
      const st = fs.fstatSync(fd);
      if (st.isDirectory()) throw codedError('EISDIR', `EISDIR: ${w.rel} is a folder, not a file`);
      if (!st.isFile()) throw new Error(`${w.rel} is not a regular file`);
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  // ---- What was read (for the file-changed check) ----

  // rel path -> SHA-256 of the bytes readFile returned, or null (it was missing). Only the hash
  // is kept, so a long-lived host does not hold every file it ever read.
  const seen = new Map();

  // ---- Locks: one writer at a time between check and rename ----

  function lock(rel) {
    const file = path.join(state, 'locks', sha(path.join(realRoot, rel)).slice(0, 32));
    const started = Date.now();
    for (;;) {
      // The lock appears whole (written aside, then linked in: link fails if the name exists), so
      // it always names its owner, even when that owner is killed right after taking it.
      const mine = `${file}.${process.pid}-${ownStart || 'x'}.new`;
      fs.writeFileSync(mine, `${process.pid} ${ownStart}`, { mode: 0o600 });
      let taken = false;
      try {
        fs.linkSync(mine, file);
        taken = true;
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
      } finally {
        fs.unlinkSync(mine);
      }
      if (taken) {
        return () => {
          try {
            fs.unlinkSync(file);
          } catch {}
        };
      }
      let stale = false;
      try {
        const [pid, start] = fs.readFileSync(file, 'utf8').split(' ');
        stale = (pid && !processAlive(Number(pid), start)) || Date.now() - fs.statSync(file).mtimeMs > LOCK_STALE_MS;
      } catch {}
      if (stale) {
        try {
          fs.unlinkSync(file);
        } catch {}
        continue;
      }
      if (Date.now() - started > LOCK_WAIT_MS) {
        throw codedError('EDITBLOCKS_FILE_CHANGED', `editblocks: ${rel} is being written by another process (lock ${file}); nothing was written to it. Apply again in a moment.`);
      }
      sleep(1);
    }
  }

  // ---- The journal ----
  //
  // One file per run in the state folder, appended to line by line (JSON):
  // a head naming the root and the process, then each temporary file's name
  // before it is created, and each replaced file's original (a backup file)
  // before the rename. Appends need no rename, so they stay cheap.

  let journal = null; // { id, file, fd, files: [...], backups: boolean, count }

  // `backups`: keep each replaced file's original so that a killed run can be
  // rolled back. Only a run changing several files needs it: replacing one
  // file is a single rename, already all-or-nothing.
  function openJournal(backups) {
    const id = `${process.pid}-${ownStart || 'x'}-${Date.now()}-${++journalCounter}`;
    const file = path.join(journalDir, `${journalPrefix}${id}.journal`);
    const create = () => fs.openSync(file, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_APPEND, 0o600);
    let fd;
    try {
      fd = create();
    } catch (e) {
      // The state folder was removed since the host was made: make it again.
      if (e.code !== 'ENOENT') throw e;
      fs.mkdirSync(journalDir, { recursive: true, mode: 0o700 });
      fd = create();
    }
    journal = { id, file, fd, files: [], backups, count: 0, madeFolders: new Set(), removedLinks: new Map() };
    openJournals.add(file);
    append({ t: 'head', version: 1, root: realRoot, pid: process.pid, start: ownStart }, false);
  }

  // Temporary names need no fsync (a killed process leaves the page cache
  // intact); an original about to be replaced does.
  function append(entry, sync) {
    fs.writeSync(journal.fd, `${JSON.stringify(entry)}\n`);
    if (sync && flush) fs.fdatasyncSync(journal.fd);
  }

  function closeJournal() {
    if (!journal) return;
    try {
      fs.closeSync(journal.fd);
    } catch {}
    // The journal goes first: killed after this, the run counts as done, and
    // backups left behind are removed by the next recovery.
    try {
      fs.unlinkSync(journal.file);
    } catch {}
    for (const f of journal.files) {
      if (f.backup) {
        try {
          fs.unlinkSync(path.join(journalDir, f.backup));
        } catch {}
      }
    }
    openJournals.delete(journal.file);
    journal = null;
  }

  // Records the original of `rel` (once per run) before it is replaced.
  function journalOriginal(rel, original, newBytes) {
    if (!journal.backups) return;
    const after = newBytes === null ? null : sha(newBytes);
    const known = journal.files.find((f) => f.path === rel);
    if (known) {
      // Written again in the same run (a rollback): the original stays the first one.
      known.after = after;
      append({ t: 'again', path: rel, after }, true);
      return;
    }
    let backup = null;
    if (original !== null) {
      backup = `${journalPrefix}${journal.id}.${++journal.count}.orig`;
      writeDurable(path.join(journalDir, backup), original, flush);
    }
    const f = { path: rel, backup, before: original === null ? null : sha(original), after };
    journal.files.push(f);
    append({ t: 'file', ...f }, true);
  }

  // A journal's lines: the head, temporaries, and files with their last `after`.
  function readJournal(file) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const j = { temps: [], files: [], stage: false };
    for (const line of lines) {
      let e;
      try {
        e = JSON.parse(line);
      } catch {
        continue; // an empty or cut last line
      }
      if (e.t === 'head') Object.assign(j, { root: e.root, pid: e.pid, start: e.start });
      else if (e.t === 'temp') j.temps.push(e.path);
      else if (e.t === 'file') j.files.push({ path: e.path, backup: e.backup, before: e.before, after: e.after });
      else if (e.t === 'again') {
        const f = j.files.find((x) => x.path === e.path);
        if (f) f.after = e.after;
      } else if (e.t === 'stage') j.stage = true;
    }
    return j;
  }

  function withJournal(fn) {
    const own = journal === null;
    if (own) openJournal(false);
    try {
      return fn();
    } finally {
      if (own) closeJournal();
    }
  }

  // ---- Operations ----

  function read(p) {
    for (let attempt = 0; ; attempt++) {
      const w = walk(p);
      try {
        if (w.missingParent || w.stat === null) {
          seen.set(w.rel, null);
          return null;
        }
        if (w.stat.isDirectory()) throw codedError('EISDIR', `${p} is a folder, not a file`);
        let bytes;
        try {
          bytes = currentBytes(w);
        } catch (e) {
          if (e.code === 'EISDIR') throw codedError('EISDIR', `${p} is a folder, not a file`);
          // Swapped for a link since the walk looked: walk again (the link is then checked).
          if (e.code === 'ELOOP' && attempt < 3) continue;
          if (e.code === 'ELOOP') throw escapes(p);
          throw e;
        }
        if (!useProc) checkFolder(p, w.names);
        seen.set(w.rel, sha(bytes));
        return bytes;
      } finally {
        w.close();
      }
    }
  }

  function write(p, content) {
    const bytes = toBuffer(content);
    return withJournal(() => {
      const w = walk(p, { create: true });
      let tmpName = null;
      let unlock = null;
      let written = false;
      try {
        if (w.stat && w.stat.isDirectory()) throw codedError('EISDIR', `EISDIR: ${p} is a folder, not a file`);
        refuseRepositoryShape(p, w);
        if (w.stat === null && relinked(w, bytes)) {
          written = true;
          return;
        }
        const mode = w.stat ? w.stat.mode & 0o7777 : undefined;
        tmpName = `.${w.name}.editblocks-${process.pid}-${++tempCounter}-${crypto.randomBytes(3).toString('hex')}.tmp`;
        append({ t: 'temp', path: [...w.names, tmpName].join('/') }, false);
        const fd = fs.openSync(path.join(w.dir, tmpName), O_TEMP, mode ?? 0o666);
        let made;
        try {
          // Without /proc/self/fd the name was looked up again: nothing is written into the
          // temporary file unless it is the one in the checked folder.
          if (!useProc) made = sameFile(p, w, tmpName, fs.fstatSync(fd));
          fs.writeFileSync(fd, bytes);
          if (flush) fs.fsyncSync(fd);
          if (mode !== undefined) fs.fchmodSync(fd, mode);
        } finally {
          fs.closeSync(fd);
        }
        unlock = lock(w.rel);
        const now = currentOrChanged(p, w);
        const expected = seen.get(w.rel);
        if (expected !== undefined && !sameBytes(expected, now)) throw changed(p, expected, now);
        folderStillInside(p, w);
        if (!useProc) sameFile(p, w, tmpName, made);
        journalOriginal(w.rel, now, bytes);
        if (expected === null) {
          // It was missing when read: create it only if it still is.
          try {
            fs.linkSync(path.join(w.dir, tmpName), path.join(w.dir, w.name));
          } catch (e) {
            if (e.code === 'EEXIST') throw changed(p, null, Buffer.alloc(0));
            throw e;
          }
          fs.unlinkSync(path.join(w.dir, tmpName));
        } else {
          fs.renameSync(path.join(w.dir, tmpName), path.join(w.dir, w.name));
        }
        tmpName = null;
        if (!useProc) checkFolder(p, w.names);
        seen.set(w.rel, sha(bytes));
        written = true;
      } finally {
        if (unlock) unlock();
        if (written) for (const { level, name } of w.made) journal.madeFolders.add([...w.names.slice(0, level), name].join('/'));
        else removeMadeFolders(w);
        if (tmpName !== null) {
          try {
            fs.unlinkSync(path.join(w.dir, tmpName));
          } catch {}
        }
        w.close();
      }
    });
  }

  function remove(p) {
    return withJournal(() => {
      // A symbolic link is removed itself, never the file it leads to (`rm`, `git rm`).
      const named = walk(p, { keepLink: true });
      if (named.stat && named.stat.isSymbolicLink()) return removeLink(p, named);
      named.close();
      const w = walk(p);
      let unlock = null;
      try {
        if (w.missingParent || w.stat === null) {
          const expected = seen.get(w.rel);
          if (expected) throw changed(p, expected, null);
          return;
        }
        if (w.stat.isDirectory()) throw codedError('EISDIR', `EISDIR: ${p} is a folder, not a file`);
        unlock = lock(w.rel);
        const now = currentOrChanged(p, w);
        const expected = seen.get(w.rel);
        if (expected !== undefined && !sameBytes(expected, now)) throw changed(p, expected, now);
        if (now === null) return;
        folderStillInside(p, w);
        journalOriginal(w.rel, now, null);
        fs.unlinkSync(path.join(w.dir, w.name));
        seen.set(w.rel, null);
        removeFoldersMadeThisRun(w);
      } finally {
        if (unlock) unlock();
        w.close();
      }
    });
  }

  // Deletes the link `named` itself. What was read through it (the file it leads to, inside
  // the root) must still be what it was, as for any delete.
  function removeLink(p, named) {
    let unlock = null;
    try {
      const target = fs.readlinkSync(path.join(named.dir, named.name));
      const through = walk(p);
      try {
        if (!through.missingParent && through.stat !== null && !through.stat.isDirectory()) {
          const expected = seen.get(through.rel);
          const now = currentOrChanged(p, through);
          if (expected !== undefined && !sameBytes(expected, now)) throw changed(p, expected, now);
        }
      } finally {
        through.close();
      }
      unlock = lock(named.rel);
      folderStillInside(p, named);
      const st = fs.lstatSync(path.join(named.dir, named.name));
      if (!st.isSymbolicLink() || fs.readlinkSync(path.join(named.dir, named.name)) !== target) throw changed(p, '', Buffer.alloc(0));
      fs.unlinkSync(path.join(named.dir, named.name));
      // Undone in this run (a rollback writes the file back): the link is made again.
      journal.removedLinks.set(named.rel, target);
      removeFoldersMadeThisRun(named);
    } finally {
      if (unlock) unlock();
      named.close();
    }
  }

  // A rollback writing back a link this run removed makes the link again, if it then reads as
  // `bytes` (what was read through it); true when it did.
  function relinked(w, bytes) {
    const target = journal.removedLinks.get(w.rel);
    if (target === undefined) return false;
    const at = path.join(w.dir, w.name);
    fs.symlinkSync(target, at);
    let same = false;
    try {
      const now = read(w.rel);
      same = now !== null && Buffer.compare(now, bytes) === 0;
    } catch {}
    if (!same) {
      fs.unlinkSync(at);
      return false;
    }
    journal.removedLinks.delete(w.rel);
    return true;
  }

  // After a delete: the folders above it that a write of this run made (a rollback deleting a
  // file it created) are removed again while empty, deepest first.
  function removeFoldersMadeThisRun(w) {
    for (let level = w.names.length - 1; level >= 0; level--) {
      const rel = w.names.slice(0, level + 1).join('/');
      if (!journal.madeFolders.has(rel)) return;
      try {
        if (useProc) fs.rmdirSync(`/proc/self/fd/${w.fds[level]}/${w.names[level]}`);
        else {
          checkFolder(w.rel, w.names.slice(0, level));
          fs.rmdirSync(path.join(realRoot, ...w.names.slice(0, level + 1)));
        }
      } catch {
        return;
      }
      journal.madeFolders.delete(rel);
    }
  }

  // Names git reads as a repository in a folder (case-insensitive file systems included):
  // HEAD with config and objects/, or HEAD with commondir (which takes the config and objects
  // of the folder it names); git discovering one runs what that config names (core.fsmonitor)
  // in whatever command the user runs there next.
  const repositoryShape = (names) => names.has('HEAD') && (names.has('COMMONDIR') || (names.has('CONFIG') && names.has('OBJECTS')));

  // Refuses a write that would complete that shape in a folder, counting what is on disk
  // (written earlier in this reply or before) and this write itself.
  function refuseRepositoryShape(p, w) {
    const levels = new Set();
    const upper = w.name.toUpperCase();
    if (upper === 'HEAD' || upper === 'CONFIG' || upper === 'COMMONDIR') levels.add(w.names.length);
    w.names.forEach((n, i) => {
      if (n.toUpperCase() === 'OBJECTS') levels.add(i);
    });
    for (const level of levels) {
      const folder = useProc ? `/proc/self/fd/${w.fds[level]}` : path.join(realRoot, ...w.names.slice(0, level));
      const present = new Set(fs.readdirSync(folder).map((n) => n.toUpperCase()));
      if (level === w.names.length) present.add(upper);
      else present.add('OBJECTS');
      if (repositoryShape(present)) {
        const where = level === 0 ? 'the project root' : w.names.slice(0, level).join('/');
        const shape = present.has('COMMONDIR') ? 'HEAD and commondir' : 'HEAD, config and objects/';
        throw codedError(
          'EDITBLOCKS_REPOSITORY_SHAPE',
          `editblocks: refused ${JSON.stringify(p)}: with it, ${where} would hold ${shape}, which git reads as a repository whose config can make any git command run there execute a program (core.fsmonitor). Write these files under other names, or create the repository with git init`,
        );
      }
    }
  }

  // The file's bytes under the lock; a name that became a link meanwhile counts as changed.
  function currentOrChanged(p, w) {
    try {
      return currentBytes(w);
    } catch (e) {
      if (e.code === 'ELOOP') throw changed(p, Buffer.alloc(0), Buffer.alloc(1));
      throw e;
    }
  }

  // `expected` is the hash of what was read (null: it was missing); `now` the bytes there now.
  function sameBytes(expected, now) {
    if (expected === null || now === null) return expected === now;
    return expected === sha(now);
  }

  function changed(p, expected, now) {
    const what = expected === null ? 'it did not exist when it was read and now does' : now === null ? 'it was deleted after it was read' : 'its content changed after it was read';
    return codedError(
      'EDITBLOCKS_FILE_CHANGED',
      `editblocks: ${p} was changed by someone else while the edits were applied (${what}); nothing was written to it. Read the file again and redo the edit.`,
    );
  }

  // ---- Recovery of runs that were killed midway ----

  const recovery = [];

  function recover() {
    recoverFolder(journalDir, journalPrefix);
    // What an earlier release left in the root's own folder; the folder goes once empty.
    if (recoverFolder(legacyJournalDir, '')) {
      try {
        fs.rmdirSync(legacyJournalDir);
      } catch {}
    }
    // Lock files left by a killed writer are removed when next met (lock()); half-made ones here.
    const lockDir = path.join(state, 'locks');
    for (const name of fs.readdirSync(lockDir)) {
      const m = /\.(\d+)-([^.]*)\.new$/.exec(name);
      if (m && !processAlive(Number(m[1]), m[2] === 'x' ? '' : m[2])) {
        try {
          fs.unlinkSync(path.join(lockDir, name));
        } catch {}
      }
    }
  }

  // Rolls back the killed runs whose journals are in `dir` and start with `prefix`; false when
  // `dir` cannot be read.
  function recoverFolder(dir, prefix) {
    let names;
    try {
      names = fs.readdirSync(dir).filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
    } catch {
      return false;
    }
    // A journal being recovered is renamed `<id>.journal.claimed-<pid>-<start>` first, so
    // two processes starting at once never both roll it back; a dead claimer's claim is taken over.
    const CLAIM = /^(.*\.journal)(?:\.claimed-(\d+)-([^.]*))?$/;
    for (const name of names) {
      const m = CLAIM.exec(name);
      if (!m) continue;
      const file = path.join(dir, prefix + name);
      if (openJournals.has(file)) continue;
      if (m[2] && processAlive(Number(m[2]), m[3] === 'x' ? '' : m[3])) continue;
      let j;
      try {
        j = readJournal(file);
      } catch {
        continue;
      }
      // Killed between creating its journal and writing the head line (or while writing it),
      // a run leaves a journal without a head: it holds nothing to roll back, and its writer is
      // named in its file name (<pid>-<start>-<time>-<n>.journal, after the root's prefix).
      if (typeof j.pid !== 'number') {
        const writer = /^(\d+)-([^-.]*)-\d+-\d+\.journal$/.exec(m[1]);
        if (!writer || j.root !== undefined) continue;
        Object.assign(j, { root: realRoot, pid: Number(writer[1]), start: writer[2] === 'x' ? '' : writer[2] });
      }
      if (j.root !== realRoot || processAlive(j.pid, j.start)) continue;
      const claimed = path.join(dir, `${prefix}${m[1]}.claimed-${process.pid}-${ownStart || 'x'}`);
      try {
        fs.renameSync(file, claimed);
      } catch {
        continue; // another process took it
      }
      recoverJournal(claimed, j, dir);
    }
    // Backups (and their temporaries) of runs that died before or after their journal said so.
    const journalOf = (n) => n.slice(0, n.indexOf('.journal'));
    let left = [];
    try {
      left = fs.readdirSync(dir).filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
    } catch {}
    const kept = new Set(left.filter((n) => n.includes('.journal')).map(journalOf));
    for (const name of left) {
      if (name.includes('.journal')) continue;
      const [pid, start, time, n] = name.split(/[-.]/);
      if (kept.has(`${pid}-${start}-${time}-${n}`) || processAlive(Number(pid), start === 'x' ? '' : start)) continue;
      try {
        fs.unlinkSync(path.join(dir, prefix + name));
      } catch {}
    }
    return true;
  }

  function recoverJournal(file, j, dir) {
    const notes = [];
    const restored = [];
    // Roll back every file the run replaced (newest first), if it still holds what the run wrote.
    for (const f of [...(j.files || [])].reverse()) {
      try {
        const now = read(f.path);
        const nowHash = now === null ? null : sha(now);
        if (nowHash === f.before) continue; // never replaced
        if (nowHash !== f.after) {
          notes.push(`${f.path} was changed again after the interrupted run; left as it is`);
          continue;
        }
        if (f.backup === null) remove(f.path);
        else write(f.path, fs.readFileSync(path.join(dir, f.backup)));
        restored.push(f.path);
      } catch (e) {
        notes.push(`${f.path} could not be restored (${e.message}); its original is kept in ${f.backup ? path.join(dir, f.backup) : 'nothing (it was created)'}`);
      }
    }
    for (const t of j.temps || []) {
      const base = path.posix.basename(t);
      if (!/^\..*\.editblocks-\d+-\d+-[0-9a-f]+\.tmp$/.test(base)) continue;
      try {
        const w = walk(t);
        try {
          if (w.stat && w.stat.isFile()) fs.unlinkSync(path.join(w.dir, w.name));
        } finally {
          w.close();
        }
      } catch {}
    }
    if (notes.some((n) => n.includes('could not be restored'))) {
      recovery.push(`An editblocks run (pid ${j.pid}) was interrupted in ${realRoot}: ${notes.join('; ')}.`);
      return; // keep the journal and its backups for the next try
    }
    try {
      fs.unlinkSync(file);
    } catch {}
    for (const f of j.files || []) {
      if (f.backup) {
        try {
          fs.unlinkSync(path.join(dir, f.backup));
        } catch {}
      }
    }
    if (j.stage && repository && fs.existsSync(path.join(repository.gitDir, 'index.lock'))) {
      notes.push(`its git add was interrupted and .git/index.lock exists: editblocks does not remove it; if no git command is running, delete it`);
    }
    if (restored.length || notes.length) {
      recovery.push(`An editblocks run (pid ${j.pid}) was interrupted in ${realRoot}; ${restored.length ? `rolled back ${restored.join(', ')}` : 'nothing to roll back'}${notes.length ? `; ${notes.join('; ')}` : ''}.`);
    }
  }

  // Every git command runs on the repository found when the host was created, named
  // explicitly: a folder a reply shaped like a repository (HEAD, config, objects/) is never
  // discovered, and no command of anyone's config or hooks (core.fsmonitor, hooks) runs.
  const gitCommand = (args) => (repository ? [`--git-dir=${repository.gitDir}`, `--work-tree=${repository.workTree}`, ...PINNED_GIT, ...args] : args);
  function runGit(args, options = {}) {
    return execFileSync('git', gitCommand(args), { cwd: realRoot, ...options });
  }
  // Staging gets a journal too: a `git add` killed with us may leave
  // .git/index.lock, which the next nodeHost reports (never removes).
  function stageJournal() {
    const own = journal === null;
    if (own) openJournal(false);
    append({ t: 'stage' }, false);
    return own ? closeJournal : () => {};
  }

  recover();

  return {
    root: realRoot,

    /**
     * Where staging happens, one sentence: the repository `git add` runs on (fixed when the
     * host was created), or why nothing is staged.
     */
    staging: repository ? `git add runs on the repository ${repository.gitDir} (work tree ${repository.workTree})` : stagingOff,

    /** What recovery did when this host was created (runs killed midway), one sentence each. */
    recovery,

    readFile(p) {
      const bytes = read(p);
      return bytes === null ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },

    /**
     * Replaces the file atomically. If readFile read it before, the file must
     * still hold what was read (or still be missing): otherwise this throws an
     * error with code 'EDITBLOCKS_FILE_CHANGED' and writes nothing.
     */
    writeFile(p, content) {
      write(p, content);
    },

    deleteFile(p) {
      remove(p);
    },

    /** The driver calls this before the first write or delete of one apply: one journal covers them all. */
    beginChanges(paths) {
      if (journal) closeJournal();
      openJournal(!Array.isArray(paths) || paths.length > 1);
    },

    /** ...and this after the last (or after rolling back): the journal is removed. */
    endChanges() {
      closeJournal();
    },

    /**
     * The path `p` really names, relative to the root (symbolic links
     * followed), so two names for one file can be told apart from two files.
     */
    realPath(p) {
      const w = walk(p);
      w.close();
      return w.rel;
    },

    /**
     * The repository's files (tracked, and untracked ones git does not
     * ignore), relative to the root: applyEdits resolves a path the model
     * wrote without its folder, or slightly misspelt, against them. Empty
     * outside a git work tree or with git: false.
     */
    listFiles() {
      if (!repository) return [];
      try {
        const out = runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
        return [...new Set(out.toString().split('\0').filter(Boolean))];
      } catch {
        return [];
      }
    },

    /**
     * The entries of folder `p` ('.' is the root), folders ending in '/',
     * for the text editor's `view` of a folder; null when `p` is no folder.
     * Symbolic links are listed, never followed.
     */
    listDir(p) {
      const list = (folder) =>
        fs.readdirSync(folder, { withFileTypes: true }).filter((e) => !isVcsFolderName(e.name)).map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
      if (p === '.') return list(realRoot);
      // The folder is reached by the same walk as every read (no link out of the root is followed),
      // then opened without following a link, so what is listed is what was checked.
      let w;
      try {
        w = walk(p);
      } catch (e) {
        if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
        throw e;
      }
      try {
        if (w.missingParent || w.stat === null || !w.stat.isDirectory()) return null;
        if (!useProc) {
          checkFolder(p, [...w.names, w.name]);
          return list(path.join(realRoot, ...w.names, w.name));
        }
        let fd;
        try {
          fd = fs.openSync(path.join(w.dir, w.name), O_DIR);
        } catch (e) {
          if (e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'ELOOP') return null;
          throw e;
        }
        try {
          return list(`/proc/self/fd/${fd}`);
        } finally {
          fs.closeSync(fd);
        }
      } finally {
        w.close();
      }
    },

    stage(paths) {
      if (gitMode === false || !paths || paths.length === 0) return;
      if (!repository) {
        if (gitMode === true) throw new Error(`editblocks: ${stagingOff}`);
        return;
      }
      for (const p of paths) walk(p).close();
      const done = stageJournal();
      try {
        // Files the repository ignores are written but not staged: staging them
        // would need `git add -f`, which is the user's call, not ours.
        const ignored = new Set();
        try {
          // check-ignore has no literal mode; a leading './' keeps a name such
          // as ':(glob)**' from being read as pathspec magic.
          const out = runGit(['check-ignore', '-z', '--stdin'], { input: paths.map((p) => `./${p}`).join('\0'), stdio: ['pipe', 'pipe', 'pipe'] });
          for (const p of out.toString().split('\0')) if (p) ignored.add(p.replace(/^\.\//, ''));
        } catch (e) {
          // Exit status 1: none of the paths is ignored.
          if (e.status !== 1) throw new Error(`editblocks: git check-ignore failed in ${realRoot}: ${e.stderr ? e.stderr.toString().trim() : e.message}`);
        }
        const toStage = paths.filter((p) => !ignored.has(p));
        if (toStage.length === 0) return;
        try {
          // Literal pathspecs: a file named ':(glob)**' must stage that file only.
          runGit(['--literal-pathspecs', 'add', '--', ...toStage], { stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          const why = e.stderr ? e.stderr.toString().trim() : e.message;
          throw new Error(`editblocks: git add failed in ${realRoot}: ${why}`);
        }
      } finally {
        done();
      }
    },
  };
}
