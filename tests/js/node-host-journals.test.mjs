// Several nodeHosts of one root in one process (an MCP server making one per
// connection) write at the same moment: each run's journal gets a name of
// its own, so no write is refused because another host's journal holds its
// name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeHost } from '../../pkg/node/index.mjs';

test('two nodeHosts of one root in one process writing in the same millisecond keep separate journals', () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-journals-state-'));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-journals-'));
  const hosts = [0, 1].map(() => nodeHost(root, { stateDir, git: false }));
  for (let i = 0; i < 200; i++) {
    // Both open a journal within the same millisecond, as often as the clock allows.
    // The first host's journal is still open while the second opens its own.
    hosts[0].beginChanges(['a.txt', 'b.txt']);
    try {
      hosts[1].beginChanges(['b.txt', 'c.txt']);
      try {
        hosts[1].writeFile('b.txt', `b ${i}\n`);
      } finally {
        hosts[1].endChanges();
      }
      hosts[0].writeFile('a.txt', `a ${i}\n`);
    } finally {
      hosts[0].endChanges();
    }
  }
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a 199\n');
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'b 199\n');
});

test('nodeHost leaves no folder in the state folder for a root once its runs are done', () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-journals-state-'));
  const roots = [0, 1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'editblocks-journals-')));
  for (const root of roots) {
    const host = nodeHost(root, { stateDir, git: false });
    // A run of one file (no journal kept beyond it) and a run of several (with backups).
    host.writeFile('one.txt', 'one\n');
    host.beginChanges(['a.txt', 'b.txt']);
    try {
      host.writeFile('a.txt', 'a\n');
      host.writeFile('b.txt', 'b\n');
    } finally {
      host.endChanges();
    }
    assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'b\n');
  }
  // A host made and never used leaves nothing either.
  nodeHost(roots[0], { stateDir, git: false });
  assert.deepEqual(fs.readdirSync(path.join(stateDir, 'journal')), []);
});
