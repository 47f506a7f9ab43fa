// A Codex shell call names its folder as an absolute `workdir` (the folder
// Codex was started in). Through nodeHost, on a real disk, that path is read
// against the host's root: inside it the patch applies from there, anywhere
// else it is refused and nothing is written. Nothing is ever run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyToolCalls, nodeHost } from '../../pkg/node/index.mjs';

const PATCH = "*** Begin Patch\n*** Update File: ui/button.js\n-export const label = 'Save';\n+export const label = 'Save all';\n*** End Patch\n";

function project() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'eb-shell-')));
  fs.mkdirSync(path.join(dir, 'web', 'ui'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'web', 'ui', 'button.js'), "export const label = 'Save';\n");
  return dir;
}
const shellCall = (workdir) => ({
  type: 'function_call',
  call_id: 'call_1',
  name: 'shell',
  arguments: JSON.stringify({ command: ['apply_patch', PATCH], workdir }),
});
const button = (dir) => fs.readFileSync(path.join(dir, 'web', 'ui', 'button.js'), 'utf8');

test("an absolute workdir inside nodeHost's root applies from that folder", async () => {
  const dir = project();
  const result = await applyToolCalls([shellCall(path.join(dir, 'web'))], nodeHost(dir, { git: false }));
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal(button(dir), "export const label = 'Save all';\n");
});

test('an absolute workdir outside the root is refused naming it, and nothing is written', async () => {
  const dir = project();
  const outside = `${dir}-old/web`;
  const result = await applyToolCalls([shellCall(outside)], nodeHost(dir, { git: false }));
  assert.equal(result.ok, false);
  assert.match(result.errors.join('\n'), new RegExp(`workdir \`${outside.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\` is an absolute path outside the project root`));
  assert.equal(button(dir), "export const label = 'Save';\n");
});

test('projectDir given by the caller wins over the host root', async () => {
  const dir = project();
  const result = await applyToolCalls([shellCall('/workspace/app/web')], nodeHost(dir, { git: false }), { projectDir: '/workspace/app' });
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal(button(dir), "export const label = 'Save all';\n");
});

test("a text editor call's absolute path inside nodeHost's root edits that file", async () => {
  const dir = project();
  const call = {
    type: 'tool_use',
    id: 'toolu_1',
    name: 'str_replace_based_edit_tool',
    input: { command: 'str_replace', path: path.join(dir, 'web', 'ui', 'button.js'), old_str: "'Save'", new_str: "'Save all'" },
  };
  const result = await applyToolCalls([call], nodeHost(dir, { git: false }));
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal(button(dir), "export const label = 'Save all';\n");
  const outside = { ...call, input: { ...call.input, path: `${dir}-old/web/ui/button.js` } };
  const refused = await applyToolCalls([outside], nodeHost(dir, { git: false }));
  assert.equal(refused.ok, false);
  assert.match(refused.errors.join('\n'), /it is absolute/);
});
