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
