// The editblocks CLI (pkg/bin/editblocks.mjs) on real temporary git repositories.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'pkg', 'bin', 'editblocks.mjs');
const examples = path.join(root, 'examples');
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8' });

function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-cli-'));
  fs.cpSync(path.join(examples, 'project'), dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'init');
  return dir;
}

const run = (args, input) => {
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, env });
};
const snapshot = (dir) => Object.fromEntries(
  fs.readdirSync(dir, { recursive: true }).filter((p) => !p.startsWith('.git') && fs.statSync(path.join(dir, p)).isFile()).sort().map((p) => [p, fs.readFileSync(path.join(dir, p), 'utf8')]),
);

test('applies the example reply: every block applied, changes staged, suggestions listed, exit 0', () => {
  const dir = project();
  const out = run(['apply', '--root', dir, path.join(examples, 'reply.md')]);
  assert.equal(out.status, 0, out.stderr + out.stdout);
  assert.match(out.stdout, /Summary: 4 applied/);
  assert.match(out.stdout, /✔ applied\s+src\/inventory\.py:\d+/);
  assert.match(out.stdout, /- +self\.items\[name\] = have \+ count/);
  assert.match(out.stdout, /\+ +self\.items\[name\] = have - count/);
  assert.match(out.stdout, /\$ git rm src\/legacy_helpers\.py/);
  assert.doesNotMatch(out.stdout, /\x1b\[/, 'no colour when stdout is not a terminal');
  assert.equal(git(dir, 'status', '--porcelain'), 'A  src/export_csv.py\nM  src/inventory.py\nM  src/report.py\nM  tests/test_inventory.py\n');
  assert.match(fs.readFileSync(path.join(dir, 'src/inventory.py'), 'utf8'), /self\.items\[name\] = have - count/);
});

test('reads the reply from standard input as it streams in', async () => {
  const dir = project();
  const reply = fs.readFileSync(path.join(examples, 'reply.md'), 'utf8');
  const child = spawn(process.execPath, [cli, 'apply', '-', '--root', dir, '--no-stage'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // Small chunks split inside lines and markers, with pauses, as a model streams.
  for (let i = 0; i < reply.length; i += 37) {
    child.stdin.write(reply.slice(i, i + 37));
    await new Promise((r) => setTimeout(r, 2));
  }
  child.stdin.end();
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0, stderr + stdout);
  assert.match(stdout, /Summary: 4 applied/);
  assert.equal(git(dir, 'status', '--porcelain'), ' M src/inventory.py\n M src/report.py\n M tests/test_inventory.py\n?? src/export_csv.py\n');
});

test('failures are explained, leave files unchanged, prepare a retry prompt and exit 1', () => {
  const dir = project();
  const before = snapshot(dir);
  const out = run(['apply', '--root', dir, path.join(examples, 'reply-with-mistakes.md')]);
  assert.equal(out.status, 1);
  assert.match(out.stdout, /Edit location is ambiguous \(matches at lines \d+ and \d+\)/);
  assert.match(out.stdout, /tabs vs spaces: line \d+ of the file indents with spaces, the edit with tabs/);
  assert.match(out.stdout, /Not tried: an earlier edit to this file \(block \d+\) failed/);
  assert.match(out.stdout, /File not found: src\/stock\.py/);
  assert.match(out.stdout, /A retry prompt was prepared \(not sent\)/);
  assert.match(out.stdout, /Summary: 3 failed, 1 skipped/);
  assert.deepEqual(snapshot(dir), before);
  assert.equal(git(dir, 'status', '--porcelain'), '');
});

test('--dry-run writes nothing; --json prints the ApplyResult', () => {
  const dir = project();
  const before = snapshot(dir);
  const out = run(['apply', path.join(examples, 'reply.md'), '--root', dir, '--dry-run', '--json']);
  assert.equal(out.status, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  assert.deepEqual(result.results.map((r) => r.status), ['validated', 'validated', 'validated', 'validated']);
  assert.deepEqual(result.filesCreated, ['src/export_csv.py']);
  assert.deepEqual(result.shellSuggestions, ['git rm src/legacy_helpers.py']);
  assert.deepEqual(result.discarded, []);
  assert.deepEqual(snapshot(dir), before);
});

test('--mode atomic writes nothing when one edit fails', () => {
  const dir = project();
  const before = snapshot(dir);
  const reply = fs.readFileSync(path.join(examples, 'reply.md'), 'utf8') + '\nsrc/nowhere.py\n««« EDIT\nold\n═══════ REPL\nnew\n»»» EDIT END\n';
  const out = run(['apply', '--root', dir, '--mode', 'atomic', '--json'], reply);
  assert.equal(out.status, 1);
  const result = JSON.parse(out.stdout);
  assert.deepEqual(result.results.map((r) => r.errorKind ?? r.status), ['atomic-aborted', 'atomic-aborted', 'atomic-aborted', 'atomic-aborted', 'file-not-found']);
  assert.deepEqual(snapshot(dir), before);
});

test('--format limits the formats read; --color forces colour', () => {
  const dir = project();
  const out = run(['apply', path.join(examples, 'reply.md'), '--root', dir, '--format', 'search-replace', '--color', '--no-stage']);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /1 applied/);
  assert.match(out.stdout, /\x1b\[32m\+ def test_remove_takes_items_away\(\):/);
  assert.equal(git(dir, 'status', '--porcelain'), ' M tests/test_inventory.py\n');
});

test('a malformed block is reported and makes the exit status 1', () => {
  const dir = project();
  const out = run(['apply', '--root', dir, '--json'], 'src/report.py\n««« EDIT\nnever closed\n');
  assert.equal(out.status, 1);
  const result = JSON.parse(out.stdout);
  assert.equal(result.results.length, 0);
  assert.equal(result.discarded.length, 1);
  assert.match(result.discarded[0].reason, /\S/);
});

test('usage errors exit 2 and say what was wrong', () => {
  for (const [args, message] of [
    [['apply', '--mode', 'sideways', 'x.md'], /--mode must be sequential or atomic/],
    [['apply', '--bogus'], /unknown option --bogus/],
    [['apply', '--format', 'edit-repl,diff3', 'x.md'], /--format: does not know the format "diff3"; use 'edit-repl', 'anchored', 'search-replace', 'apply-patch', 'unified-diff'/],
    [['frobnicate'], /unknown command frobnicate/],
    [['apply', '--root', '/no/such/folder/xyz', path.join(examples, 'reply.md')], /--root \/no\/such\/folder\/xyz is not a folder/],
    [['apply', '--root', os.tmpdir(), '/no/such/reply.md'], /cannot read \/no\/such\/reply\.md/],
  ]) {
    const out = run(args, '');
    assert.equal(out.status, 2, `${args.join(' ')}: ${out.stdout}${out.stderr}`);
    assert.match(out.stderr, message);
  }
  assert.equal(run(['--help']).status, 0);
  assert.match(run(['--version']).stdout, /^editblocks \d+\.\d+\.\d+/);
});
