// nodeHost's git against a reply (or a local process) that shapes a folder
// like a repository: HEAD, a config naming a core.fsmonitor command, objects/,
// refs/. Git discovering such a folder runs that command in any git command
// there: nodeHost's own `git add`, or the user's next `git status`. The
// command here only creates a marker file; it must never appear.
//
// Three layouts: the root inside a repository (a subfolder of its work tree),
// the root in no repository, the root at a repository's top. Three ways in:
// the CLI, applyEdits (a V4A patch) and applyToolCalls (write_file calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEdits, applyToolCalls, applyToolCallsSync, nodeHost } from '../../pkg/node/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', '..', 'pkg', 'bin', 'editblocks.mjs');
const made = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});
const tmp = (name) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `editblocks-${name}-`)));
  made.push(dir);
  return dir;
};
// Git as the user runs it: no configuration of the machine's, none of the test's.
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: gitEnv });

function repository() {
  const dir = tmp('repo');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  fs.mkdirSync(path.join(dir, 'pkg'));
  fs.writeFileSync(path.join(dir, 'pkg', 'a.txt'), 'one\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'init');
  return dir;
}

// Each layout: the root, where the reply plants the repository (relative to the root), and
// where a user would run `git status` next.
const layouts = {
  'root inside a repository': () => ({ root: path.join(repository(), 'pkg'), at: '' }),
  'root in no repository': () => {
    const root = tmp('plain');
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    return { root, at: '' };
  },
  'root at a repository top': () => ({ root: repository(), at: 'vendor/lib' }),
};

// The files of a repository whose config runs `touch <marker>` when git looks at its work tree.
const plant = (at, marker) => {
  const under = (name) => (at ? `${at}/${name}` : name);
  return [
    [under('HEAD'), 'ref: refs/heads/main\n'],
    [under('config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch '${marker}'; true"\n`],
    [under('objects/info/packs'), '\n'],
    [under('refs/heads/main'), '0000000000000000000000000000000000000000\n'],
  ];
};

const v4a = (files) => ['*** Begin Patch', ...files.flatMap(([p, text]) => [`*** Add File: ${p}`, ...text.replace(/\n$/, '').split('\n').map((l) => `+${l}`)]), '*** End Patch', ''].join('\n');
const edit = ['*** Begin Patch', '*** Update File: a.txt', '@@', '-one', '+two', '*** End Patch', ''].join('\n');

const ways = {
  cli: async (root, reply) => {
    const out = spawnSync(process.execPath, [cli, 'apply', '-', '--root', root], { input: reply, encoding: 'utf8', env: gitEnv });
    return `${out.stdout}${out.stderr}`;
  },
  applyEdits: async (root, reply, state) => {
    try {
      return JSON.stringify(await applyEdits(reply, nodeHost(root, { stateDir: state })));
    } catch (e) {
      return e.message;
    }
  },
  applyToolCalls: async (root, reply, state, files) => {
    const calls = files ? files.map(([p, content]) => ({ name: 'write_file', arguments: { path: p, content } })) : [{ name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'two' } }];
    try {
      return JSON.stringify(await applyToolCalls(calls, nodeHost(root, { stateDir: state })));
    } catch (e) {
      return e.message;
    }
  },
};

for (const [layoutName, layout] of Object.entries(layouts)) {
  for (const [wayName, apply] of Object.entries(ways)) {
    test(`${layoutName}, ${wayName}: a reply writing a repository's files is refused, and no git runs its command`, async () => {
      const { root, at } = layout();
      const marker = path.join(tmp('marker'), 'ran');
      const files = plant(at, marker);
      const state = tmp('state');
      const said = await apply(root, v4a(files), state, files);
      // The next apply (a new host, as the next run of an agent makes), then the user's own git.
      await apply(root, edit, state);
      const planted = path.join(root, at);
      if (fs.existsSync(planted)) spawnSync('git', ['status'], { cwd: planted, env: gitEnv, stdio: 'ignore' });
      assert.equal(fs.existsSync(marker), false, `the planted core.fsmonitor command ran: ${said}`);
      assert.equal(fs.existsSync(path.join(planted, 'config')), false, 'the repository config was not written');
      assert.match(said, /would hold HEAD, config and objects\/, which git reads as a repository/);
    });
  }
}

// A repository shape already on disk in the root (a local process put it there): git, asked
// for the repository with bare ones found only when named, finds none, so nothing is staged.
for (const layoutName of ['root inside a repository', 'root in no repository']) {
  for (const [wayName, apply] of Object.entries(ways)) {
    test(`${layoutName}, ${wayName}: staging never runs git in a repository planted in the root`, async () => {
      const { root } = layouts[layoutName]();
      const marker = path.join(tmp('marker'), 'ran');
      for (const [p, text] of plant('', marker)) {
        fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
        fs.writeFileSync(path.join(root, p), text);
      }
      const said = await apply(root, edit, tmp('state'));
      assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'two\n', said);
      assert.equal(fs.existsSync(marker), false, `the planted core.fsmonitor command ran: ${said}`);
      // The root itself looks like a repository to git: the host uses none, and says why.
      assert.match(nodeHost(root, { stateDir: tmp('state') }).staging, /^nothing is staged: .* is not in a git work tree \(fatal: cannot use bare repository/);
      if (layoutName === 'root inside a repository') assert.equal(git(path.dirname(root), 'status', '--porcelain', '--', 'pkg/a.txt'), ' M pkg/a.txt\n');
    });
  }
}

test('the host says where it stages, and why it does not', () => {
  const top = repository();
  assert.match(nodeHost(path.join(top, 'pkg'), { stateDir: tmp('state') }).staging, new RegExp(`git add runs on the repository ${path.join(top, '.git').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const plain = tmp('plain');
  const host = nodeHost(plain, { stateDir: tmp('state') });
  assert.match(host.staging, /^nothing is staged: .* is not in a git work tree/);
  assert.throws(() => nodeHost(plain, { git: true, stateDir: tmp('state') }).stage(['a.txt']), /nothing is staged: .* is not in a git work tree/);
  assert.equal(host.stage(['a.txt']), undefined);
});

test('a repository shape in a subfolder is never used: staging runs on the repository found, with its fsmonitor off', () => {
  const top = repository();
  const marker = path.join(tmp('marker'), 'ran');
  for (const [p, text] of plant('pkg/vendor', marker)) {
    fs.mkdirSync(path.dirname(path.join(top, p)), { recursive: true });
    fs.writeFileSync(path.join(top, p), text);
  }
  // The real repository's own config names a monitor: it does not run either.
  git(top, 'config', 'core.fsmonitor', `touch '${marker}'; true`);
  const host = nodeHost(path.join(top, 'pkg'), { stateDir: tmp('state') });
  const result = applyToolCallsSyncEdit(host);
  assert.equal(result.results[0].status, 'applied', result.results[0].reason);
  assert.equal(fs.existsSync(marker), false);
  git(top, 'config', '--unset', 'core.fsmonitor');
  assert.equal(git(top, 'status', '--porcelain', '--', 'pkg/a.txt'), 'M  pkg/a.txt\n');
});
const applyToolCallsSyncEdit = (host) => applyToolCallsSync([{ name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'two' } }], host);

test('a repository split in two folders (HEAD and commondir in one, config and objects/ in the other) is refused too', async () => {
  const root = tmp('split');
  const marker = path.join(tmp('marker'), 'ran');
  const files = [
    ['common/config', `[core]\n\trepositoryformatversion = 1\n\tbare = false\n\tfsmonitor = "touch '${marker}'; true"\n[extensions]\n\tworktreeConfig = true\n`],
    ['common/objects/info/packs', '\n'],
    ['common/refs/heads/main', '0000000000000000000000000000000000000000\n'],
    ['w/HEAD', 'ref: refs/heads/main\n'],
    ['w/commondir', '../common\n'],
    ['w/config.worktree', '[core]\n\tworktree = .\n'],
  ];
  const said = await ways.applyEdits(root, v4a(files), tmp('state'));
  spawnSync('git', ['status'], { cwd: path.join(root, 'w'), env: gitEnv, stdio: 'ignore' });
  assert.equal(fs.existsSync(marker), false, said);
  assert.match(said, /refused "w\/commondir": with it, w would hold HEAD and commondir, which git reads as a repository/);
  assert.deepEqual(fs.readdirSync(root), []);
});
