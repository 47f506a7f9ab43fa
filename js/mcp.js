// editblocks mcp: a Model Context Protocol server whose tools edit one folder.
//
//   editblocks mcp [--root DIR] [--allow-folder DIR]... [--read-only] [--dry-run]
//                  [--no-flush] [--http PORT]
//
// The tools are js/agent-tools.js's (the text editor's commands and
// apply_patch), each applied through nodeHost(root). Standard input/output
// carry the protocol by default; --http serves Streamable HTTP on 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import * as api from '../node/index.mjs';
import { EDIT_TOOLS, runEditTool } from './agent-tools.js';

export const MCP_USAGE = `Usage: editblocks mcp [options]

Serves the edit tools view, create, str_replace, insert, undo_edit and apply_patch
over the Model Context Protocol (standard input/output), editing one folder.

Options:
  --root DIR          the project folder (default: the current folder); paths are relative to it
  --allow-folder DIR  allow writes inside this version-control folder, named exactly
                      (such as .git/info); repeat for more
  --read-only         offer view only; every edit is refused
  --dry-run           answer edits with their diff; write nothing
  --no-flush          do not wait for the disk before a new file replaces the old one
                      (atomic still; a power cut right after may leave an empty file)
  --http PORT         serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead (0 picks a free port)
  -h, --help          show this help

The client's MCP roots, when it lists them, narrow the folders edited to those roots
inside --root.`;

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { root: '.', allowFolders: [], readOnly: false, dryRun: false, flush: true, http: undefined, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const take = () => {
      if (eq > 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '-h': case '--help': opts.help = true; break;
      case '--root': opts.root = take(); break;
      case '--allow-folder': opts.allowFolders.push(take()); break;
      case '--read-only': opts.readOnly = true; break;
      case '--dry-run': opts.dryRun = true; break;
      case '--no-flush': opts.flush = false; break;
      case '--http': {
        const port = take();
        if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`--http needs a port number (0-65535), not ${port}`);
        opts.http = Number(port);
        break;
      }
      default: throw new UsageError(`unknown argument ${arg} for editblocks mcp`);
    }
  }
  return opts;
}

const log = (message) => process.stderr.write(`editblocks mcp: ${String(message).replace(/[\p{Cc}\p{Cf}]/gu, (c) => (c === '\n' ? ' ' : `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}>`))}\n`);

const inside = (dir, base) => dir === base || dir.startsWith(base.endsWith(path.sep) ? base : base + path.sep);

/** The folders one connection edits: --root, or the client's roots inside it. */
class Workspace {
  #base;
  #hosts = new Map();
  #roots = null; // null: the client lists no roots
  #ignored = [];

  #hostOptions;

  constructor(base, hostOptions) {
    this.#base = base;
    this.#hostOptions = hostOptions;
  }

  host(dir) {
    let host = this.#hosts.get(dir);
    if (!host) {
      // Creating the host finishes what a killed earlier run left in that folder.
      host = api.nodeHost(dir, this.#hostOptions);
      for (const note of host.recovery || []) log(note);
      this.#hosts.set(dir, host);
    }
    return host;
  }

  /** Takes the client's roots (file: URIs); those outside --root are ignored. */
  setRoots(roots) {
    const usable = [];
    const ignored = [];
    for (const root of roots) {
      let dir;
      try {
        dir = fs.realpathSync(fileURLToPath(root.uri));
      } catch {
        ignored.push(root.uri);
        continue;
      }
      if (inside(dir, this.#base) && fs.statSync(dir).isDirectory()) usable.push(dir);
      else ignored.push(root.uri);
    }
    for (const uri of ignored) log(`the client's root ${uri} is not a folder inside ${this.#base}; it is not edited`);
    this.#roots = usable;
    this.#ignored = ignored;
  }

  /** The host a tool input's path belongs to, or the reason there is none. */
  hostFor(input) {
    if (this.#roots === null) return { host: this.host(this.#base) };
    if (!this.#roots.length) {
      return { refusal: `No folder can be edited: the client's roots (${this.#ignored.join(', ') || 'none'}) are not inside the server's root ${this.#base}. Add a root inside it in the client, or start the server with a --root that holds them.` };
    }
    const given = input && typeof input.path === 'string' ? input.path : '';
    // An absolute path picks the root that holds it; a relative one is read from the first root.
    const dir = (path.isAbsolute(given) && this.#roots.find((r) => inside(path.resolve(given), r))) || this.#roots[0];
    return { host: this.host(dir) };
  }
}

const ANNOTATIONS = {
  view: { readOnlyHint: true, openWorldHint: false },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  str_replace: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  insert: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  undo_edit: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  apply_patch: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

/** One MCP server (one per connection) over the shared options. */
function createServer(base, opts, version) {
  const server = new Server({ name: 'editblocks', version }, { capabilities: { tools: {} } });
  const workspace = new Workspace(base, { flush: opts.flush });
  // Made now, so that what a killed earlier server left in the root is rolled back at start.
  workspace.host(base);
  const session = new api.EditSession();
  const tools = EDIT_TOOLS.filter((t) => !opts.readOnly || !t.writes);
  // Calls run one at a time, in the order they came: undo_edit's history and
  // the diffs stay in the order the model sent its edits.
  let queue = Promise.resolve();

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: opts.dryRun && t.writes ? `${t.description} (Dry run: the answer shows the diff; nothing is written.)` : t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.name, ...ANNOTATIONS[t.name] },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const run = async () => {
      const { name, arguments: input = {} } = request.params;
      const target = workspace.hostFor(input);
      if (target.refusal) return { content: [{ type: 'text', text: target.refusal }], isError: true };
      const answer = await runEditTool(api, name, input, target.host, { session, dryRun: opts.dryRun, readOnly: opts.readOnly, allowFolders: opts.allowFolders });
      const content = [{ type: 'text', text: answer.output }];
      if (answer.diff) content.push({ type: 'text', text: answer.diff });
      return answer.ok ? { content } : { content, isError: true };
    };
    const done = queue.then(run, run);
    queue = done.catch(() => {});
    return done.catch((e) => ({ content: [{ type: 'text', text: `The edit could not be carried out: ${e && e.message ? e.message : e}` }], isError: true }));
  });

  const readRoots = async () => {
    if (!server.getClientCapabilities()?.roots) return;
    try {
      workspace.setRoots((await server.listRoots()).roots);
    } catch (e) {
      log(`could not read the client's roots: ${e && e.message ? e.message : e}`);
    }
  };
  server.oninitialized = () => void readRoots();
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => readRoots());
  return server;
}

function serveHttp(base, opts, version) {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (url.pathname !== '/mcp') {
        res.writeHead(404).end('editblocks mcp: the endpoint is /mcp\n');
        return;
      }
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      let body;
      if (req.method === 'POST') {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null }));
          return;
        }
      }
      if (!transport) {
        if (id !== undefined || req.method !== 'POST' || !isInitializeRequest(body)) {
          res.writeHead(id === undefined ? 400 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: id === undefined ? 'No session: send initialize first' : 'Unknown session id' }, id: null }));
          return;
        }
        const port = httpServer.address().port;
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => transports.set(sid, transport),
          // Only pages served from this machine's own names may reach the server.
          enableDnsRebindingProtection: true,
          allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
        });
        transport.onclose = () => {
          if (transport.sessionId) transports.delete(transport.sessionId);
        };
        await createServer(base, opts, version).connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      log(e && e.message ? e.message : e);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  return new Promise((resolve, reject) => {
    httpServer.on('error', reject);
    httpServer.listen(opts.http, '127.0.0.1', () => {
      log(`serving http://127.0.0.1:${httpServer.address().port}/mcp for ${base}`);
      const stop = () => httpServer.close(() => resolve(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
}

/** Runs the server until the client goes away; returns the exit status. */
export async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`editblocks mcp: ${e.message}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(MCP_USAGE + '\n');
    return 0;
  }
  const resolved = path.resolve(opts.root);
  let base;
  try {
    base = fs.realpathSync(resolved);
  } catch {
    process.stderr.write(`editblocks mcp: --root ${opts.root} does not exist (${resolved}); pass the project folder to edit\n`);
    return 2;
  }
  if (!fs.statSync(base).isDirectory()) {
    process.stderr.write(`editblocks mcp: --root ${opts.root} is a file, not a folder; pass the project folder to edit\n`);
    return 2;
  }
  let version = 'unknown';
  try {
    version = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
  } catch {}
  if (opts.http !== undefined) {
    try {
      return await serveHttp(base, opts, version);
    } catch (e) {
      process.stderr.write(`editblocks mcp: cannot serve on 127.0.0.1:${opts.http}: ${e && e.message ? e.message : e}\n`);
      return 1;
    }
  }
  const server = createServer(base, opts, version);
  const transport = new StdioServerTransport();
  const closed = new Promise((resolve) => {
    server.onclose = () => resolve(0);
    process.stdin.once('end', () => resolve(0));
  });
  await server.connect(transport);
  return closed;
}
