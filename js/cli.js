// editblocks: the command line.
//
//   editblocks apply [reply-file | -] [--root DIR] [--dry-run] [--mode sequential|atomic]
//                    [--matching exact|tolerant] [--format edit-repl,anchored,search-replace,apply-patch,unified-diff]
//                    [--no-stage] [--overwrite] [--allow-folder DIR]... [--json] [--color | --no-color]
//                    [--stop-on-unmatched]
//
// Reads a model's reply from a file or standard input as it streams, applies
// its edit blocks to the folder --root (default: the current folder) and
// prints each block's result with a coloured diff and a summary. Exits 1 when
// any edit failed or a block was malformed, 2 on a usage error.
import fs from 'node:fs';
import path from 'node:path';
import * as api from '../node/index.mjs';

const USAGE = `Usage: editblocks apply [reply-file | -] [options]
       editblocks mcp [--root DIR] [options]   (serves the edit tools over MCP: editblocks mcp --help)

Applies the edit blocks in a model's reply (a file, or standard input) to a folder.

Options:
  --root DIR          the project folder (default: the current folder)
  --dry-run           validate only; write nothing
  --mode MODE         sequential (default): a failure skips the rest of that file
                      atomic: one failure writes nothing at all
  --matching M        exact (default) or tolerant (unique-only fallback passes)
  --format LIST       formats to read, comma-separated: edit-repl, anchored, search-replace, apply-patch, unified-diff
  --no-stage          do not 'git add' the changed files
  --overwrite         let a block with an empty old section replace an existing file
  --allow-folder DIR  allow writes inside this version-control folder, named exactly
                      (such as .git/info); repeat for more. Others (.git, .hg, .svn,
                      .bzr, .jj in any spelling) are always refused
  --json              print the result as JSON
  --stop-on-unmatched stop reading at the first block that can no longer apply
                      (its old text is not in the file, or is ambiguous) while
                      the reply streams in; nothing is written, exit status 3
  --color, --no-color force colours on or off
  -h, --help          show this help
  -v, --version       print the version

Exit status: 0 when every edit applied (or validated), 1 when any failed, 2 on a usage error,
3 when --stop-on-unmatched stopped the reply.`;

class UsageError extends Error {}
// --stop-on-unmatched: a block-unmatched event ends reading the reply.
class Stopped extends Error {
  constructor(event) {
    super(event.reason);
    this.event = event;
  }
}

// Text from the reply or from the files (paths, diff lines, reasons that quote
// them, nearest lines) is printed to a terminal: an ESC, OSC or C1 sequence
// in it could recolour the screen, write the clipboard, make links, or move
// the cursor back over a line (a lone CR) to hide an edit from the person
// reviewing it. So every control character but tab is shown as its Unicode
// control picture (NUL → ␀, ESC → ␛, CR → ␍, LF → ␊, DEL → ␡), and C1
// controls, line/paragraph separators and invisible format characters
// (bidi overrides, zero-width characters: Unicode Cf) as <U+XXXX>.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

function visible(text) {
  const s = String(text);
  if (!UNSAFE.test(s)) return s;
  return s.replace(UNSAFE_ALL, (c) => {
    const code = c.codePointAt(0);
    if (code === 9) return c;
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

// Output is built from two kinds of text: the CLI's own (its sentences and
// colour codes) and text from outside (the reply, the files, paths, host
// messages). Outside text is a plain string; the CLI's own is a `Shown`.
// Every line is written by `write`, which passes each plain string through
// `visible`, so text from outside cannot reach the terminal raw however a
// message is put together.
class Shown {
  constructor(text) {
    this.text = text;
  }
}
const show = (part) => (part instanceof Shown ? part.text : visible(part));
/** A line of the CLI's own words; each `${value}` from outside is shown through `visible`. */
const say = (strings, ...parts) => new Shown(strings.reduce((out, s, i) => out + s + (i < parts.length ? show(parts[i]) : ''), ''));
const joined = (parts, separator) => new Shown(parts.map(show).join(separator));

/** Writes lines (Shown, or outside text) to a stream, one per line. */
function write(stream, ...lines) {
  stream.write(lines.map(show).join('\n') + '\n');
}

// --json output is JSON, so C0 controls are already \u escapes; DEL, C1 and
// the invisible characters are escaped too (the same JSON value) so that
// printing it to a terminal is safe as well.
const jsonSafe = (json) => json.replace(/[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu, (c) =>
  Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));

/** Writes a value as JSON, every character a terminal could act on escaped. */
function writeJson(stream, value) {
  stream.write(jsonSafe(JSON.stringify(value, null, 2)) + '\n');
}

function parseArgs(argv) {
  const opts = { command: null, file: null, root: '.', dryRun: false, mode: undefined, matching: undefined, formats: undefined, stage: true, overwrite: false, json: false, color: undefined, stopOnUnmatched: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const take = (name) => {
      if (inline !== undefined) return inline;
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
      i++;
      return v;
    };
    switch (flag) {
      case '-h': case '--help': opts.command = 'help'; break;
      case '-v': case '--version': opts.command = 'version'; break;
      case '--root': opts.root = take('--root'); break;
      case '--dry-run': opts.dryRun = true; break;
      case '--mode': opts.mode = take('--mode'); break;
      case '--matching': opts.matching = take('--matching'); break;
      case '--format': case '--formats': opts.formats = take('--format').split(',').map((s) => s.trim()).filter(Boolean); break;
      case '--no-stage': opts.stage = false; break;
      case '--overwrite': opts.overwrite = true; break;
      case '--allow-folder': (opts.allowFolders ??= []).push(take('--allow-folder')); break;
      case '--json': opts.json = true; break;
      case '--stop-on-unmatched': opts.stopOnUnmatched = true; break;
      case '--color': opts.color = true; break;
      case '--no-color': opts.color = false; break;
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
        if (opts.command === null) opts.command = arg;
        else if (opts.file === null) opts.file = arg;
        else throw new UsageError(`unexpected argument ${arg}`);
    }
  }
  if (opts.mode !== undefined && !['sequential', 'atomic'].includes(opts.mode)) throw new UsageError(`--mode must be sequential or atomic, not ${opts.mode}`);
  if (opts.matching !== undefined && !['exact', 'tolerant'].includes(opts.matching)) throw new UsageError(`--matching must be exact or tolerant, not ${opts.matching}`);
  // The live preview locates blocks exactly: with tolerant matching it would stop on blocks that apply.
  if (opts.stopOnUnmatched && opts.matching === 'tolerant') throw new UsageError('--stop-on-unmatched follows exact matching; it cannot be combined with --matching tolerant');
  // The core's parser knows the formats: it refuses a name it does not read, naming those it does.
  for (const f of opts.formats || []) {
    try {
      api.parseEdits('', { formats: [f] });
    } catch (e) {
      throw new UsageError(`--format: ${e.message.replace(/^editblocks: parseEdits /, '')}`);
    }
  }
  return opts;
}

function painter(enabled) {
  const wrap = (open, close) => (s) => new Shown(enabled ? `\x1b[${open}m${show(s)}\x1b[${close}m` : show(s));
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39), dim: wrap(2, 22), bold: wrap(1, 22), inverse: wrap(7, 27) };
}

// The block's diff as the renderers draw it: anchor and trailing anchor are
// context, old against new, with the changed words inside paired lines.
function blockDiff(block) {
  const join = (...parts) => parts.filter((p) => p !== '').join('\n');
  return api.diffBlock(join(block.anchor, block.oldLines, block.trailingAnchor), join(block.anchor, block.newLines, block.trailingAnchor))
    .map((line) => [{ removed: '-', added: '+' }[line.kind] || ' ', line.text, line.spans]);
}

// Long runs of unchanged context are shortened to what surrounds the change.
function trimContext(lines, keep = 3) {
  const changed = lines.map((l) => l[0] !== ' ');
  if (!changed.some(Boolean)) return lines.slice(0, keep * 2);
  const out = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    const near = changed.slice(Math.max(0, i - keep), i + keep + 1).some(Boolean);
    if (near) {
      if (skipped) out.push(['…', `${skipped} unchanged line${skipped === 1 ? '' : 's'}`]);
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped) out.push(['…', `${skipped} unchanged line${skipped === 1 ? '' : 's'}`]);
  return out;
}

const STATUS_LABEL = { applied: 'applied', validated: 'valid', failed: 'failed', skipped: 'skipped', 'not-in-context': 'not in context' };

function printResult(out, c, r, block) {
  const mark = { applied: c.green('✔'), validated: c.green('✔'), failed: c.red('✘'), skipped: c.yellow('–'), 'not-in-context': c.yellow('?') }[r.status] || '·';
  const colour = { applied: c.green, validated: c.green, failed: c.red }[r.status] || c.yellow;
  const where = r.estimatedLine ? `${r.path}:${r.estimatedLine}` : r.path;
  const extra = [block ? block.format : null, r.errorKind, r.matchedBy && r.matchedBy !== 'exact' ? `matched: ${r.matchedBy}` : null].filter(Boolean).join(', ');
  out.push(say`${mark} ${colour(STATUS_LABEL[r.status]?.padEnd(8) ?? r.status)} ${c.bold(where)}${extra ? c.dim(say`  (${extra})`) : ''}`);
  if (r.reason) out.push(say`    ${r.status === 'failed' ? c.red(r.reason) : c.yellow(r.reason)}`);
  const d = r.diagnostics;
  if (d && d.nearest && d.nearest.length && r.status === 'failed') {
    out.push(c.dim('    nearest lines in the file:'));
    for (const n of d.nearest) out.push(c.dim(say`      ${String(n.line).padStart(5)} │ ${n.text}   (${Math.round(n.similarity * 100)}% alike)`));
  }
  if (block && (r.status === 'applied' || r.status === 'validated' || r.status === 'failed')) {
    // Changed words inside a paired line are drawn on a coloured background.
    const words = (text, spans, bg) => (spans ? joined(spans.map((s) => (s.changed ? bg(s.text) : s.text)), '') : text);
    for (const [kind, text, spans] of trimContext(blockDiff(block))) {
      if (kind === '-') out.push(say`    ${c.red(say`- ${words(text, spans, c.inverse)}`)}`);
      else if (kind === '+') out.push(say`    ${c.green(say`+ ${words(text, spans, c.inverse)}`)}`);
      else if (kind === '…') out.push(say`    ${c.cyan(say`@@ ${text} @@`)}`);
      else out.push(say`    ${c.dim(say`  ${text}`)}`);
    }
  }
}

async function readInput(file, onChunk) {
  const stream = file === null || file === '-' ? process.stdin : fs.createReadStream(file);
  if ((file === null || file === '-') && process.stdin.isTTY) throw new UsageError('no reply given: pass a file, or pipe the reply into standard input');
  stream.setEncoding('utf8');
  let text = '';
  try {
    for await (const chunk of stream) {
      text += chunk;
      onChunk(chunk);
    }
  } catch (e) {
    if (e.code === 'ENOENT') throw new UsageError(`cannot read ${file}: no such file`);
    if (e.code === 'EISDIR') throw new UsageError(`cannot read ${file}: it is a folder; pass the reply file`);
    throw e;
  }
  return text;
}

async function apply(opts) {
  const useColor = opts.color ?? (!process.env.NO_COLOR && (!!process.env.FORCE_COLOR || !!process.stdout.isTTY));
  const c = painter(useColor);
  const err = painter(opts.color ?? (!process.env.NO_COLOR && (!!process.env.FORCE_COLOR || !!process.stderr.isTTY)));
  const root = path.resolve(opts.root);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`--root ${opts.root} is not a folder`);

  // Parse as the reply streams in, so progress shows while a model is still writing.
  const formats = opts.formats;
  const streamOptions = formats ? { formats } : {};
  // The live preview locates each block in the files as it streams.
  if (opts.stopOnUnmatched) streamOptions.preview = { host: api.nodeHost(root) };
  const stream = new api.EditStream(streamOptions);
  const blocks = [];
  const discarded = [];
  // Progress only helps a person watching a reply arrive on standard input.
  const showProgress = !opts.json && (opts.file === null || opts.file === '-') && !!process.stderr.isTTY;
  const onEvents = (events) => {
    for (const ev of events || []) {
      if (ev.type === 'block-complete') {
        blocks[ev.index ?? blocks.length] = ev.block;
        if (showProgress) write(process.stderr, err.dim(say`  received block ${blocks.filter(Boolean).length}: ${ev.block.filePath}`));
      } else if (ev.type === 'block-discarded') {
        discarded.push(ev);
      } else if (ev.type === 'block-unmatched' && opts.stopOnUnmatched) {
        throw new Stopped(ev);
      }
    }
  };
  let text;
  try {
    text = await readInput(opts.file, (chunk) => onEvents(stream.feed(chunk)));
    onEvents(stream.finish());
  } catch (e) {
    if (!(e instanceof Stopped)) throw e;
    const ev = e.event;
    if (opts.json) writeJson(process.stdout, { stopped: { filePath: ev.filePath, lineNumber: ev.lineNumber, errorKind: ev.errorKind, reason: ev.reason, since: ev.since } });
    else {
      write(
        process.stderr,
        say`${err.red('editblocks: stopped')} at the block for ${err.bold(ev.filePath)} (reply line ${ev.lineNumber}): it can no longer apply (${ev.errorKind}).`,
        say`    ${ev.reason}`,
        say`Nothing was written.`,
      );
    }
    return 3;
  }
  const input = blocks.filter(Boolean);
  // Creating the host finishes what a killed earlier run left (rolls it back, removes its temporary files).
  const host = api.nodeHost(root);
  for (const note of host.recovery || []) write(process.stderr, err.yellow(say`editblocks: ${note}`));
  const options = { dryRun: opts.dryRun, stage: opts.stage, overwrite: opts.overwrite };
  if (opts.mode) options.mode = opts.mode;
  if (opts.matching) options.matching = opts.matching;
  if (formats) options.formats = formats;
  if (opts.allowFolders) options.allowFolders = opts.allowFolders;
  const result = api.applyEditsSync(input, host, options);
  // The blocks were parsed while streaming; suggestions come from the whole text.
  result.shellSuggestions = api.detectShellSuggestions(text);
  const shownBlocks = input;

  const failed = result.results.filter((r) => r.status === 'failed' || r.errorKind === 'path-escape').length;
  const exitCode = failed > 0 || discarded.length > 0 ? 1 : 0;
  if (opts.json) {
    const recovery = host.recovery && host.recovery.length ? { recovery: host.recovery } : {};
    writeJson(process.stdout, { ...result, discarded: discarded.map(({ type, ...d }) => d), ...recovery });
    return exitCode;
  }

  const out = [];
  for (const r of result.results) {
    printResult(out, c, r, shownBlocks[r.blockIndex]);
    out.push('');
  }
  for (const d of discarded) {
    out.push(say`${c.red('✘')} ${c.red('malformed')} ${c.bold(d.filePath ? d.filePath : say`(no path)`)}${c.dim(say`  (reply line ${d.lineNumber})`)}`);
    out.push(say`    ${c.red(d.reason)}`);
    out.push('');
  }
  if (result.results.length === 0 && discarded.length === 0) out.push(c.yellow(say`No edit blocks found in the reply.`));

  const count = (s) => result.results.filter((r) => r.status === s).length;
  const parts = [];
  if (count('applied')) parts.push(c.green(`${count('applied')} applied`));
  if (count('validated')) parts.push(c.green(`${count('validated')} valid (dry run, nothing written)`));
  if (count('failed')) parts.push(c.red(`${count('failed')} failed`));
  if (count('skipped')) parts.push(c.yellow(`${count('skipped')} skipped`));
  if (count('not-in-context')) parts.push(c.yellow(`${count('not-in-context')} not in context`));
  if (discarded.length) parts.push(c.red(`${discarded.length} malformed`));
  if (parts.length) out.push(say`${c.bold('Summary:')} ${joined(parts, ', ')}`);
  const verb = opts.dryRun ? 'would modify' : 'modified';
  if (result.filesModified.length) out.push(say`  ${verb}: ${result.filesModified.join(', ')}`);
  if (result.filesCreated.length) out.push(say`  ${opts.dryRun ? 'would create' : 'created'}: ${result.filesCreated.join(', ')}`);
  if (result.shellSuggestions.length) {
    out.push(say`  suggested commands (not run):`);
    for (const s of result.shellSuggestions) out.push(say`    ${c.cyan(say`$ ${s}`)}`);
  }
  if (result.stageError) out.push(c.yellow(say`  warning: ${result.stageError}`));
  if (result.retryPrompt) {
    out.push('');
    out.push(c.bold('A retry prompt was prepared (not sent):'));
    for (const line of result.retryPrompt.trimEnd().split('\n')) out.push(c.dim(say`  ${line}`));
  }
  write(process.stdout, ...out);
  return exitCode;
}

export async function main(argv) {
  // The MCP server reads its own options (js/mcp.js).
  if (argv[0] === 'mcp') return (await import('./mcp.js')).main(argv.slice(1));
  let opts;
  try {
    opts = parseArgs(argv);
    if (opts.command === 'help' || opts.command === null) {
      write(process.stdout, ...USAGE.split('\n'));
      return opts.command === 'help' ? 0 : 2;
    }
    if (opts.command === 'version') {
      let version = 'unknown';
      try {
        version = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
      } catch {}
      write(process.stdout, say`editblocks ${version}`);
      return 0;
    }
    if (opts.command !== 'apply') throw new UsageError(`unknown command ${opts.command}; the commands are 'apply' and 'mcp'`);
    return await apply(opts);
  } catch (e) {
    if (e instanceof UsageError) {
      write(process.stderr, say`editblocks: ${e.message}`, '', ...USAGE.split('\n'));
      return 2;
    }
    const message = String(e && e.message ? e.message : e).replace(/^editblocks: /, '');
    write(process.stderr, say`editblocks: ${message}`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
