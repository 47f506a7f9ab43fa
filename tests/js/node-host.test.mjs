// nodeHost against real temporary folders and real git repositories.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEdits, applyEditsSync, applyToolCallsSync, applyHashlineEditSync, nodeHost } from '../../pkg/node/index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `editblocks-${name}-`));
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const block = (filePath, anchor, oldLines, newLines) => ({ format: 'edit-repl', filePath, anchor, oldLines, newLines, trailingAnchor: '', rawBlock: '', lineNumber: 1 });

function repo(files) {
  const dir = tmp('repo');
  for (const [p, t] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), t);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'init');
  return dir;
}

test('reads bytes, returns null for a missing file, writes with parent folders', () => {
  const dir = tmp('host');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'héllo\n');
  const host = nodeHost(dir);
  const bytes = host.readFile('a.txt');
  assert.ok(bytes instanceof Uint8Array);
  assert.equal(new TextDecoder().decode(bytes), 'héllo\n');
  assert.equal(host.readFile('missing.txt'), null);
  host.writeFile('deep/er/b.txt', 'b\n');
  assert.equal(fs.readFileSync(path.join(dir, 'deep/er/b.txt'), 'utf8'), 'b\n');
});

test('writes are atomic: a temporary file in the same folder, renamed over the target, mode kept', () => {
  const dir = tmp('atomic');
  const target = path.join(dir, 'run.sh');
  fs.writeFileSync(target, 'echo old\n');
  fs.chmodSync(target, 0o755);
  const inodeBefore = fs.statSync(target).ino;
  const host = nodeHost(dir);
  host.writeFile('run.sh', 'echo new\n');
  assert.equal(fs.readFileSync(target, 'utf8'), 'echo new\n');
  assert.notEqual(fs.statSync(target).ino, inodeBefore, 'a new file was renamed into place');
  assert.equal(fs.statSync(target).mode & 0o777, 0o755);
  assert.deepEqual(fs.readdirSync(dir), ['run.sh'], 'no temporary file is left behind');
});

test('a failed write leaves what was there and no temporary file', () => {
  const dir = tmp('failwrite');
  fs.mkdirSync(path.join(dir, 'taken'));
  fs.writeFileSync(path.join(dir, 'taken/inner.txt'), 'keep\n');
  const host = nodeHost(dir);
  // The rename over a folder fails: the folder and its file must be untouched, no temporary file left.
  assert.throws(() => host.writeFile('taken', 'new\n'), /EISDIR|ENOTEMPTY|EEXIST|EPERM/);
  assert.deepEqual(fs.readdirSync(dir), ['taken']);
  assert.equal(fs.readFileSync(path.join(dir, 'taken/inner.txt'), 'utf8'), 'keep\n');
});

test('confined to root: .., absolute paths and symlinks that lead outside are refused', () => {
  const outside = tmp('outside');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  const dir = tmp('confined');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
  fs.symlinkSync(outside, path.join(dir, 'linkdir'));
  fs.symlinkSync(path.join(outside, 'nothing-yet.txt'), path.join(dir, 'dangling.txt'));
  fs.writeFileSync(path.join(dir, 'inside.txt'), 'in\n');
  fs.symlinkSync(path.join(dir, 'inside.txt'), path.join(dir, 'ok-link.txt'));
  const host = nodeHost(dir);
  for (const bad of ['../x', '/etc/passwd', 'link.txt', 'linkdir/secret.txt', 'linkdir/new/file.txt', 'dangling.txt']) {
    assert.throws(() => host.readFile(bad), /refused/, `read ${bad}`);
    assert.throws(() => host.writeFile(bad, 'pwned\n'), /refused/, `write ${bad}`);
  }
  assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
  // A link that stays inside is followed, and writing goes to its target.
  assert.equal(new TextDecoder().decode(host.readFile('ok-link.txt')), 'in\n');
  host.writeFile('ok-link.txt', 'changed\n');
  assert.equal(fs.readFileSync(path.join(dir, 'inside.txt'), 'utf8'), 'changed\n');
  assert.ok(fs.lstatSync(path.join(dir, 'ok-link.txt')).isSymbolicLink());
});

test('an edit through a symlink leading outside is skipped as path-escape and writes nothing outside', async () => {
  const outside = tmp('outside2');
  fs.writeFileSync(path.join(outside, 'x.py'), 'a = 1\n');
  const dir = tmp('confined2');
  fs.symlinkSync(path.join(outside, 'x.py'), path.join(dir, 'x.py'));
  fs.symlinkSync(outside, path.join(dir, 'out'));
  const runs = [
    (b) => applyEditsSync(b, nodeHost(dir)),
    (b) => applyEdits(b, nodeHost(dir)),
    (b) => applyEditsSync(b, nodeHost(dir), { mode: 'atomic' }),
  ];
  for (const run of runs) {
    for (const p of ['x.py', 'out/x.py']) {
      const result = await run([block(p, '', 'a = 1', 'a = 2')]);
      assert.equal(result.results[0].status, 'skipped', p);
      assert.equal(result.results[0].errorKind, 'path-escape', p);
      assert.match(result.results[0].reason, /^Cannot edit [^:]+: refused "[^"]+": a symbolic link leads outside the project root\. Nothing outside the project root is read or written\.$/);
    }
  }
  const tool = applyToolCallsSync([{ name: 'edit_file', arguments: { path: 'x.py', old_string: 'a = 1', new_string: 'a = 2' } }], nodeHost(dir));
  assert.equal(tool.results[0].status, 'skipped');
  assert.equal(tool.results[0].errorKind, 'path-escape');
  const hl = applyHashlineEditSync({ path: 'x.py', edits: [], delete: true }, nodeHost(dir));
  assert.equal(hl.status, 'skipped');
  assert.equal(hl.errorKind, 'path-escape');
  assert.equal(fs.readFileSync(path.join(outside, 'x.py'), 'utf8'), 'a = 1\n');
  assert.deepEqual(fs.readdirSync(outside), ['x.py']);
});

test('a symbolic link inside the root that leads into .git is refused as path-escape by every way in, and for both hosts\' walks', async () => {
  const dir = repo({ 'a.txt': 'one\n' });
  fs.symlinkSync('.git', path.join(dir, 'glink'));
  fs.symlinkSync('.git/config', path.join(dir, 'cfg'));
  fs.symlinkSync(path.join(dir, '.git', 'hooks'), path.join(dir, 'hooks'));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.symlinkSync('../.git', path.join(dir, 'sub', 'up'));
  const config = fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8');
  const fsmonitor = '[core]\n\tfsmonitor = "touch pwned"';
  const escaped = (r, what) => {
    assert.equal(r.status, 'skipped', `${what}: ${JSON.stringify(r)}`);
    assert.equal(r.errorKind, 'path-escape', what);
  };
  for (const race of [undefined, 'check-paths']) {
    const host = () => nodeHost(dir, race ? { race } : {});
    for (const p of ['glink/config', 'cfg', 'sub/up/config', 'hooks/pre-commit']) {
      escaped(applyEditsSync([block(p, '', '[core]', fsmonitor)], host()).results[0], `block ${p}`);
      escaped(applyEditsSync([block(p, '', '', '#!/bin/sh')], host(), { overwrite: true }).results[0], `create ${p}`);
      escaped(applyEditsSync(`*** Begin Patch\n*** Update File: ${p}\n@@\n-[core]\n+[core]\n+\tfsmonitor = "touch pwned"\n*** End Patch\n`, host()).results[0], `apply-patch ${p}`);
      escaped(applyEditsSync(`*** Begin Patch\n*** Delete File: ${p}\n*** End Patch\n`, host()).results[0], `delete ${p}`);
      escaped(applyEditsSync(`*** Begin Patch\n*** Update File: a.txt\n*** Move to: ${p}\n@@\n-one\n+two\n*** End Patch\n`, host(), { overwrite: true }).results[0], `move to ${p}`);
      for (const call of [
        { type: 'apply_patch_call', call_id: 'c', operation: { type: 'update_file', path: p, diff: '@@\n-[core]\n+[core]\n+\tfsmonitor = "touch pwned"\n' } },
        { type: 'apply_patch_call', call_id: 'c', operation: { type: 'delete_file', path: p } },
        { type: 'tool_use', id: 't', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: p, old_str: '[core]', new_str: fsmonitor } },
        { type: 'tool_use', id: 't', name: 'str_replace_based_edit_tool', input: { command: 'view', path: p } },
        { type: 'tool_use', id: 't', name: 'str_replace_based_edit_tool', input: { command: 'view', path: p.split('/')[0] } },
        { name: 'write_file', args: { file_path: p, content: '#!/bin/sh\n' } },
      ]) {
        const r = applyToolCallsSync([call], host());
        if (call.input?.path === 'sub') continue; // an ordinary folder (it lists the link, never follows it)
        escaped(r.results[0], `${JSON.stringify(call)}`);
        assert.doesNotMatch(JSON.stringify(r), /repositoryformatversion|pre-commit\.sample/);
      }
      escaped(applyHashlineEditSync({ path: p, edits: [], delete: true }, host()), `hashline delete ${p}`);
      escaped(applyHashlineEditSync({ path: 'a.txt', edits: [], rename: p }, host()), `hashline rename to ${p}`);
    }
  }
  assert.equal(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8'), config);
  assert.deepEqual(fs.readdirSync(path.join(dir, '.git', 'hooks')).filter((f) => !f.endsWith('.sample')), []);
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\n');
});

test('applying to a real git repository writes and stages modified and created files', async () => {
  const dir = repo({ 'src/app.py': 'def main():\n    print("hi")\n', 'README.md': 'readme\n' });
  const result = await applyEdits(
    [block('src/app.py', 'def main():', '    print("hi")', '    print("hello")'), block('src/new/util.py', '', '', 'X = 1')],
    nodeHost(dir),
  );
  assert.deepEqual(result.results.map((r) => r.status), ['applied', 'applied']);
  assert.equal(fs.readFileSync(path.join(dir, 'src/app.py'), 'utf8'), 'def main():\n    print("hello")\n');
  assert.equal(git(dir, 'status', '--porcelain'), 'M  src/app.py\nA  src/new/util.py\n');
});

test('stage: false and git: false leave the index alone; dry run touches nothing', () => {
  const dir = repo({ 'a.txt': 'one\n' });
  applyEditsSync([block('a.txt', '', 'one', 'two')], nodeHost(dir), { stage: false });
  assert.equal(git(dir, 'status', '--porcelain'), ' M a.txt\n');
  applyEditsSync([block('a.txt', '', 'two', 'three')], nodeHost(dir, { git: false }));
  assert.equal(git(dir, 'status', '--porcelain'), ' M a.txt\n');
  const result = applyEditsSync([block('a.txt', '', 'three', 'four')], nodeHost(dir), { dryRun: true });
  assert.equal(result.results[0].status, 'validated');
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'three\n');
});

test('outside a git work tree, staging is skipped quietly', () => {
  const dir = tmp('nogit');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  const result = applyEditsSync([block('a.txt', '', 'one', 'two')], nodeHost(dir));
  assert.equal(result.results[0].status, 'applied');
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'two\n');
});

test('a root in a subfolder of a repository stages paths relative to that root', () => {
  const dir = repo({ 'pkg/lib/a.txt': 'one\n' });
  applyEditsSync([block('lib/a.txt', '', 'one', 'two')], nodeHost(path.join(dir, 'pkg')));
  assert.equal(git(dir, 'status', '--porcelain'), 'M  pkg/lib/a.txt\n');
});

test('an ignored file is written but not staged, and the rest is staged', () => {
  const dir = repo({ '.gitignore': '.env\n', 'a.txt': 'one\n' });
  fs.writeFileSync(path.join(dir, '.env'), 'KEY=1\n');
  const result = applyEditsSync([block('.env', '', 'KEY=1', 'KEY=2'), block('a.txt', '', 'one', 'two')], nodeHost(dir));
  assert.deepEqual(result.results.map((r) => r.status), ['applied', 'applied']);
  assert.equal(result.stageError, undefined);
  assert.equal(fs.readFileSync(path.join(dir, '.env'), 'utf8'), 'KEY=2\n');
  assert.equal(git(dir, 'status', '--porcelain'), 'M  a.txt\n');
});

test('paths are staged literally: a file named like a pathspec stages only itself', () => {
  const dir = repo({ 'unrelated.txt': 'u\n', 'sub/other.txt': 'o\n' });
  fs.writeFileSync(path.join(dir, 'unrelated.txt'), 'changed\n');
  applyEditsSync([block(':(glob)**', '', '', 'x')], nodeHost(dir));
  assert.equal(git(dir, 'status', '--porcelain'), 'A  :(glob)**\n M unrelated.txt\n');
});

test('two names for one file (a symlink inside the root) are refused, not applied twice over one another', async () => {
  const dir = tmp('alias');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/config.py'), 'A = 1\nB = 1\n');
  fs.symlinkSync('src/config.py', path.join(dir, 'config.py'));
  const blocks = [block('config.py', '', 'A = 1', 'A = 2'), block('src/config.py', '', 'B = 1', 'B = 2')];
  for (const run of [(b) => applyEditsSync(b, nodeHost(dir)), (b) => applyEdits(b, nodeHost(dir))]) {
    const result = await run(blocks);
    assert.deepEqual(result.results.map((r) => r.status), ['failed', 'failed']);
    assert.match(result.results[0].reason, /"config\.py" and "src\/config\.py" name the same file \("src\/config\.py", through a symbolic link\); edit it under one name only/);
    assert.equal(fs.readFileSync(path.join(dir, 'src/config.py'), 'utf8'), 'A = 1\nB = 1\n');
  }
  // One name alone is fine.
  const one = applyEditsSync([blocks[0]], nodeHost(dir));
  assert.equal(one.results[0].status, 'applied');
  assert.equal(fs.readFileSync(path.join(dir, 'src/config.py'), 'utf8'), 'A = 2\nB = 1\n');
});

test('nodeHost refuses a root that does not exist', () => {
  assert.throws(() => nodeHost(path.join(os.tmpdir(), 'editblocks-no-such-folder-xyz')), /does not exist/);
});

test('links inside the root are followed by hand: folder links, relative links with .., chains; loops and links out are refused', () => {
  const outside = tmp('outside3');
  const dir = tmp('links');
  fs.mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src/lib/a.txt'), 'a\n');
  fs.symlinkSync('src/lib', path.join(dir, 'lib'));                 // a folder link
  fs.symlinkSync('../lib/a.txt', path.join(dir, 'src/up.txt'));     // relative, through .. and another link
  fs.symlinkSync('up.txt', path.join(dir, 'src/chain.txt'));        // a chain
  fs.symlinkSync('loop2', path.join(dir, 'loop1'));
  fs.symlinkSync('loop1', path.join(dir, 'loop2'));
  fs.symlinkSync('../../..' + outside, path.join(dir, 'src/sneaky'));  // .. past the root
  const host = nodeHost(dir);
  for (const p of ['lib/a.txt', 'src/up.txt', 'src/chain.txt']) {
    assert.equal(new TextDecoder().decode(host.readFile(p)), 'a\n', p);
    assert.equal(host.realPath(p), 'src/lib/a.txt', p);
  }
  host.writeFile('lib/new/b.txt', 'b\n');
  assert.equal(fs.readFileSync(path.join(dir, 'src/lib/new/b.txt'), 'utf8'), 'b\n');
  host.writeFile('src/chain.txt', 'changed\n');
  assert.equal(fs.readFileSync(path.join(dir, 'src/lib/a.txt'), 'utf8'), 'changed\n');
  assert.ok(fs.lstatSync(path.join(dir, 'src/chain.txt')).isSymbolicLink());
  assert.throws(() => host.readFile('loop1'), /refused "loop1": too many levels of symbolic links/);
  assert.throws(() => host.writeFile('src/sneaky/x.txt', 'x\n'), (e) => e.code === 'EDITBLOCKS_PATH_ESCAPE');
  assert.deepEqual(fs.readdirSync(outside), []);
});

test('names that only look like .. stay inside, and a backslash is part of a name outside Windows', { skip: process.platform === 'win32' }, () => {
  const dir = tmp('dots');
  const host = nodeHost(dir);
  host.writeFile('..foo', '1\n');
  host.writeFile('a\\b.txt', '2\n');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['..foo', 'a\\b.txt']);
});

test('a git add killed with its run: the next nodeHost reports .git/index.lock and does not remove it', () => {
  const dir = repo({ 'a.txt': 'one\n' });
  const state = tmp('stagestate');
  const bin = tmp('fakegit');
  const pidFile = path.join(bin, 'pid');
  // A git that takes the index lock and hangs in `add`, as one killed mid-way would leave it.
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh
case "$*" in
  *rev-parse*) printf '%s\n%s\n' "$PWD/.git" "$PWD" ;;
  *check-ignore*) exit 1 ;;
  *add*) echo $$ > ${JSON.stringify(pidFile)}; : > .git/index.lock; exec sleep 30 ;;
esac
`, { mode: 0o755 });
  const code = `const { nodeHost } = await import(process.argv[1]); nodeHost(process.argv[2], { stateDir: process.argv[3] }).stage(['a.txt']);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code, path.join(here, '../../pkg/node/index.mjs'), dir, state], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (!fs.existsSync(pidFile) || !fs.existsSync(path.join(dir, '.git/index.lock'))) return;
      clearInterval(poll);
      child.once('exit', () => {
        try {
          process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL'); // git dies too, its lock stays
          const host = nodeHost(dir, { stateDir: state });
          assert.equal(host.recovery.length, 1);
          assert.match(host.recovery[0], /its git add was interrupted and \.git\/index\.lock exists: editblocks does not remove it; if no git command is running, delete it/);
          assert.ok(fs.existsSync(path.join(dir, '.git/index.lock')));
          resolve();
        } catch (e) {
          reject(e);
        }
      });
      child.kill('SIGKILL');
    }, 20);
  });
});

test('nodeHost lists the repository files; a path without its folder resolves to the one that fits', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-list-'));
  try {
    fs.mkdirSync(path.join(dir, 'src'));
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'src/file3.py'), 'x = 1\n');
    fs.writeFileSync(path.join(dir, 'src/util.py'), 'u = 1\n');
    fs.writeFileSync(path.join(dir, 'lib/util.py'), 'u = 1\n');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const host = nodeHost(dir);
    assert.deepEqual(host.listFiles().sort(), ['lib/util.py', 'src/file3.py', 'src/util.py']);
    const reply = 'file3.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n\nutil.py\n<<<<<<< SEARCH\nu = 1\n=======\nu = 2\n>>>>>>> REPLACE\n';
    const r = await applyEdits(reply, host, { stage: false });
    assert.equal(r.results[0].filePath, 'src/file3.py');
    assert.deepEqual(r.results[0].assumed, ['path-resolved']);
    assert.equal(fs.readFileSync(path.join(dir, 'src/file3.py'), 'utf8'), 'x = 2\n');
    assert.equal(r.results[1].errorKind, 'file-not-found');
    assert.match(r.results[1].reason, /lib\/util\.py, src\/util\.py/);
    // knownFiles given by the caller win over the host's list.
    const none = applyEditsSync('file3.py\n<<<<<<< SEARCH\nx = 2\n=======\nx = 3\n>>>>>>> REPLACE\n', host, { knownFiles: [], stage: false });
    assert.equal(none.results[0].errorKind, 'file-not-found');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
