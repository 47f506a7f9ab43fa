// The demo page: stream a reply through EditStream, draw blocks while they
// are written, apply the reply to an in-memory project, draw the results.
// Every piece of HTML about edits comes from the package's renderers.
import * as eb from '../pkg/web/index.js';
import { project, replies } from './examples.js';

const $ = (id) => document.getElementById(id);
const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const state = {
  files: new Map(Object.entries(project)),
  marks: new Map(), // path -> 'M' (modified) | 'A' (added)
  run: null, // the streaming run in progress: { cancelled }
  reply: replies[0].id,
  lastApply: null,
  review: null, // a dry run waiting for accept/reject: { changes, decisions }
};
// For the browser tests and the curious: the page's state.
window.__demo = state;

function setPhase(phase) {
  document.body.dataset.phase = phase;
}

function setStatus(text, isError = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('error', isError);
}

// ---- theme ---------------------------------------------------------------

function applyTheme(theme) {
  const root = document.documentElement;
  root.classList.toggle('eb-dark', theme === 'dark');
  root.classList.toggle('eb-light', theme === 'light');
  for (const b of document.querySelectorAll('[data-theme]')) b.setAttribute('aria-pressed', String(b.dataset.theme === theme));
  try {
    localStorage.setItem('eb-theme', theme);
  } catch {
    /* storage may be off */
  }
}

// ---- the project panel ----------------------------------------------------

function renderFiles() {
  const list = $('files');
  const paths = [...state.files.keys()].sort();
  list.innerHTML = paths
    .map((p) => {
      const mark = state.marks.get(p) || '';
      return `<li data-action="open-file" data-file-path="${escapeHtml(p)}" title="View ${escapeHtml(p)}"><span class="mark mark-${mark}">${mark}</span><span>${escapeHtml(p)}</span></li>`;
    })
    .join('');
}

function openFile(path, line, note) {
  const viewer = $('viewer');
  viewer.hidden = false;
  $('viewer-title').textContent = path;
  const noteEl = $('viewer-note');
  noteEl.hidden = !note;
  noteEl.textContent = note || '';
  const code = $('viewer-code');
  const content = state.files.get(path);
  if (content == null) {
    code.innerHTML = `<span class="ln" data-n="">${escapeHtml('(no such file in the project)')}</span>`;
    return;
  }
  const lines = content.replace(/\n$/, '').split('\n');
  code.innerHTML = lines
    .map((l, i) => `<span class="ln${i + 1 === line ? ' hl' : ''}" data-n="${i + 1}">${escapeHtml(l) || ' '}</span>`)
    .join('');
  const hl = code.querySelector('.hl');
  if (hl) hl.scrollIntoView({ block: 'center', behavior: 'smooth' });
}

function onActionClick(event) {
  const target = event.target.closest('[data-action]');
  if (!target) return;
  const path = target.dataset.filePath;
  if (!path) return;
  const line = target.dataset.line ? Number(target.dataset.line) : undefined;
  let note;
  if (target.dataset.action === 'show-error' && state.lastApply) {
    const index = target.dataset.blockIndex !== undefined ? Number(target.dataset.blockIndex) : -1;
    const r = state.lastApply.results.find((x) => x.blockIndex === index) || state.lastApply.results.find((x) => x.path === path && x.reason);
    if (r && r.reason) note = r.reason;
  }
  openFile(path, line, note);
}

// ---- the assistant card ---------------------------------------------------

/** Prose between blocks: paragraphs, with `inline code`. */
function proseHtml(lines) {
  const text = lines.join('\n').trim();
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/`([^`\n]+)`/g, '<code>$1</code>')}</p>`)
    .join('');
}

/**
 * Lays the reply out as prose and blocks. `blocks` are the complete blocks so
 * far (each drawn by `draw(block, index)`); while `streaming`, the block
 * EditStream reports as pending is drawn with renderInProgressEditBlock.
 */
function layout(text, blocks, draw, { streaming, pending, pendingHtml }) {
  const lines = text.split('\n');
  const ranges = [];
  let searchFrom = 0;
  blocks.forEach((block, index) => {
    // The block spans its rawBlock (path line to end marker) in the reply;
    // its lines, not a guess at marker lines, say where it ends, so content
    // that looks like a marker stays inside the block.
    const raw = String(block.rawBlock || '').split('\n');
    let start = Math.max(searchFrom, (block.lineNumber || 1) - 1);
    const found = lines.findIndex((l, i) => i >= start && l.trimEnd() === raw[0].trimEnd());
    if (found >= 0) start = found;
    const end = Math.min(lines.length - 1, start + raw.length - 1);
    ranges.push({ start, end, html: draw(block, index) });
    searchFrom = end + 1;
  });
  if (streaming && pending) {
    // The parser's view of the block being written, drawn from pending().
    const start = Math.max(searchFrom, (pending.lineNumber || 1) - 1);
    // With the live preview: the block drawn in place in its file.
    ranges.push({ start, end: lines.length - 1, html: pendingHtml || eb.renderInProgressEditBlock(pending) });
  }
  let html = '';
  let at = 0;
  for (const r of ranges) {
    html += proseHtml(lines.slice(at, r.start));
    html += r.html;
    at = r.end + 1;
  }
  const tail = proseHtml(lines.slice(at));
  html += streaming ? tail.replace(/<\/p>$/, '<span class="typing"></span></p>') : tail;
  return html;
}

function drawCard(html) {
  $('card-body').innerHTML = html;
}

// ---- streaming and applying -----------------------------------------------

function memoryHost() {
  return {
    readFile: (path) => (state.files.has(path) ? state.files.get(path) : null),
    writeFile: (path, content) => {
      state.marks.set(path, state.files.has(path) && state.marks.get(path) !== 'A' ? 'M' : 'A');
      state.files.set(path, content);
    },
    deleteFile: (path) => {
      state.files.delete(path);
      state.marks.delete(path);
    },
  };
}

async function applyAndShow(text, blocks) {
  if (typeof eb.applyEdits !== 'function') {
    drawCard(layout(text, blocks, (block) => eb.renderEditBlock(block), { streaming: false }));
    setStatus('This build of the package has no applyEdits: the blocks are shown as parsed, not applied.', true);
    setPhase('parsed');
    return;
  }
  setPhase('applying');
  const t0 = performance.now();
  const result = await eb.applyEdits(text, memoryHost());
  const ms = performance.now() - t0;
  state.lastApply = result;
  // The stream's blocks and the engine's parse agree on order ("any chunking
  // gives the same blocks"); fall back to a fresh parse if they ever do not.
  const shown = blocks.length === result.results.length || !eb.parseEdits ? blocks : eb.parseEdits(text);
  const html = layout(text, shown, (block, index) => eb.renderEditBlock(block, result, { index }), { streaming: false });
  // Seed 000: a retry prompt is prepared for the user's next message, never sent.
  const followUp = result.retryPrompt
    ? `<label class="follow-up"><span>Your next message, prepared — review it and send it yourself</span><textarea readonly rows="6">${escapeHtml(result.retryPrompt)}</textarea></label>`
    : '';
  drawCard(html + eb.renderEditsSummary(result, { retryNote: 'A retry prompt has been prepared in the message box below.' }) + followUp);
  renderFiles();
  const c = (s) => result.results.filter((r) => r.status === s).length;
  setStatus(`Applied in ${ms.toFixed(1)} ms: ${c('applied')} applied, ${c('failed')} failed, ${c('skipped')} skipped.`);
  setPhase('done');
}

// ---- review: accept or reject each file before anything is written ---------

/**
 * Dry run of the reply: nothing is written; each file the reply would change
 * is drawn from the result's fileChanges (renderFileChange), with Accept and
 * Reject. "Apply accepted" then writes the accepted files' new contents only.
 */
async function reviewAndShow(text, blocks) {
  setPhase('applying');
  const preview = await eb.applyEdits(text, memoryHost(), { dryRun: true });
  state.lastApply = preview;
  state.review = { changes: preview.fileChanges, decisions: new Map(preview.fileChanges.map((c) => [c.path, 'accept'])) };
  const shown = blocks.length === preview.results.length || !eb.parseEdits ? blocks : eb.parseEdits(text);
  const blocksHtml = layout(text, shown, (block, index) => eb.renderEditBlock(block, preview, { index }), { streaming: false });
  const files = preview.fileChanges
    .map((change) => {
      const what = change.before === null ? 'created' : change.after === null ? 'deleted' : change.movedFrom ? `moved from ${escapeHtml(change.movedFrom)}` : 'changed';
      return (
        `<div class="review-file" data-file-path="${escapeHtml(change.path)}" data-decision="accept">` +
        `<div class="review-head"><span class="review-what">${escapeHtml(change.path)} — ${what}</span>` +
        `<span class="review-buttons" role="group" aria-label="Accept or reject ${escapeHtml(change.path)}">` +
        `<button type="button" data-review="accept" data-file-path="${escapeHtml(change.path)}" aria-pressed="true">Accept</button>` +
        `<button type="button" data-review="reject" data-file-path="${escapeHtml(change.path)}" aria-pressed="false">Reject</button>` +
        `</span></div>${eb.renderFileChange(change, { status: 'validated' })}</div>`
      );
    })
    .join('');
  const panel = preview.fileChanges.length
    ? `<section class="review" aria-label="Review the changes"><h3>Review: ${preview.fileChanges.length} file${preview.fileChanges.length === 1 ? '' : 's'} would change (nothing written yet)</h3>${files}` +
      `<div class="buttons"><button type="button" id="apply-accepted" class="primary">Apply accepted</button></div></section>`
    : '<section class="review"><h3>Nothing to apply: no file would change.</h3></section>';
  drawCard(blocksHtml + eb.renderEditsSummary(preview) + panel);
  setStatus(`Dry run: ${preview.fileChanges.length} file(s) would change. Accept or reject each, then apply.`);
  setPhase('review');
}

function onReviewClick(event) {
  const button = event.target.closest('button[data-review]');
  if (button && state.review) {
    const path = button.dataset.filePath;
    const decision = button.dataset.review;
    state.review.decisions.set(path, decision);
    const box = [...document.querySelectorAll('.review-file')].find((el) => el.dataset.filePath === path);
    if (box) {
      box.dataset.decision = decision;
      for (const b of box.querySelectorAll('button[data-review]')) b.setAttribute('aria-pressed', String(b.dataset.review === decision));
    }
    return;
  }
  if (event.target.closest('#apply-accepted') && state.review) applyAccepted();
}

/** Writes the accepted files' contents from the dry run; a file changed since the review is left alone. */
function applyAccepted() {
  const host = memoryHost();
  const written = [];
  const stale = [];
  const rejected = [];
  for (const change of state.review.changes) {
    if (state.review.decisions.get(change.path) !== 'accept') {
      rejected.push(change.path);
      continue;
    }
    const source = change.movedFrom ?? change.path;
    if ((state.files.get(source) ?? null) !== change.before) {
      stale.push(change.path);
      continue;
    }
    if (change.after === null) host.deleteFile(change.path);
    else host.writeFile(change.path, change.after);
    if (change.movedFrom) host.deleteFile(change.movedFrom);
    written.push(change.path);
  }
  for (const box of document.querySelectorAll('.review-file')) {
    box.dataset.result = written.includes(box.dataset.filePath) ? 'written' : stale.includes(box.dataset.filePath) ? 'stale' : 'rejected';
    for (const b of box.querySelectorAll('button')) b.disabled = true;
  }
  const button = $('apply-accepted');
  if (button) button.disabled = true;
  state.review = null;
  renderFiles();
  const list = (paths) => (paths.length ? paths.join(', ') : 'none');
  setStatus(`Applied ${written.length} accepted file(s): ${list(written)}. Rejected: ${list(rejected)}.${stale.length ? ` Changed since the review, not written: ${list(stale)}.` : ''}`, stale.length > 0);
  setPhase('done');
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function streamReply(text) {
  if (state.run) state.run.cancelled = true;
  const run = { cancelled: false };
  state.run = run;
  setButtons(true);
  setPhase('streaming');
  // The live preview locates each block in the in-memory project while it is
  // written, and says as soon as one can no longer apply.
  const stream = new eb.EditStream({ preview: { files: state.files } });
  const blocks = [];
  const unmatched = [];
  const take = (events) => {
    for (const e of events || []) {
      if (e.type === 'block-complete' && e.block) blocks.push(e.block);
      if (e.type === 'block-unmatched') unmatched.push(e);
    }
  };
  let sent = 0;
  const tick = 40;
  while (sent < text.length) {
    if (run.cancelled) return;
    const speed = Number($('speed').value);
    const mean = Math.max(1, (speed * tick) / 1000);
    const size = Math.max(1, Math.round(mean * (0.5 + Math.random())));
    const chunk = text.slice(sent, sent + size);
    sent += chunk.length;
    take(stream.feed(chunk));
    const pending = stream.pending();
    const pendingHtml = pending ? eb.renderInProgressEditBlock(stream) : '';
    const soFar = text.slice(0, sent);
    drawCard(layout(soFar, blocks, (block) => eb.renderEditBlock(block), { streaming: true, pending, pendingHtml }));
    const warn = unmatched.length ? ` ${unmatched.length} block${unmatched.length === 1 ? '' : 's'} can no longer apply (${unmatched[unmatched.length - 1].filePath}, reply line ${unmatched[unmatched.length - 1].lineNumber}).` : '';
    setStatus(`Streaming… ${sent.toLocaleString()} of ${text.length.toLocaleString()} characters, ${blocks.length} block${blocks.length === 1 ? '' : 's'} complete${pending ? ', one being written' : ''}.${warn}`, unmatched.length > 0);
    await sleep(tick);
  }
  take(stream.finish());
  if (run.cancelled) return;
  state.run = null;
  setButtons(false);
  if ($('review').checked && typeof eb.renderFileChange === 'function') await reviewAndShow(text, blocks);
  else await applyAndShow(text, blocks);
}

function setButtons(streaming) {
  $('stream').disabled = streaming;
  $('instant').disabled = streaming;
  $('stop').disabled = !streaming;
}

function resetFiles() {
  state.files = new Map(Object.entries(project));
  state.marks = new Map();
  state.lastApply = null;
  state.review = null;
  renderFiles();
  $('viewer').hidden = true;
}

function selectReply(id) {
  const reply = replies.find((r) => r.id === id) || replies[0];
  state.reply = reply.id;
  $('reply').value = reply.text;
  for (const b of document.querySelectorAll('#examples button')) b.setAttribute('aria-checked', String(b.dataset.reply === reply.id));
}

async function main() {
  $('examples').innerHTML = replies
    .map((r) => `<button type="button" role="radio" data-reply="${escapeHtml(r.id)}" aria-checked="false">${escapeHtml(r.title)}</button>`)
    .join('');
  $('examples').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-reply]');
    if (b) selectReply(b.dataset.reply);
  });
  const params = new URLSearchParams(location.search);
  selectReply(params.get('reply') || replies[0].id);
  if (params.get('speed')) $('speed').value = params.get('speed');
  const showSpeed = () => ($('speed-out').textContent = `${Number($('speed').value).toLocaleString()} chars/s`);
  $('speed').addEventListener('input', showSpeed);
  showSpeed();

  let theme = 'auto';
  try {
    theme = localStorage.getItem('eb-theme') || 'auto';
  } catch {
    /* storage may be off */
  }
  applyTheme(params.get('theme') || theme);
  for (const b of document.querySelectorAll('[data-theme]')) b.addEventListener('click', () => applyTheme(b.dataset.theme));

  resetFiles();
  $('files').addEventListener('click', onActionClick);
  $('card-body').addEventListener('click', onActionClick);
  $('card-body').addEventListener('click', onReviewClick);
  if (params.get('review')) $('review').checked = params.get('review') !== '0';
  $('card-body').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target.closest('[data-action]')) onActionClick(e);
  });
  $('viewer-close').addEventListener('click', () => ($('viewer').hidden = true));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') $('viewer').hidden = true;
  });

  const t0 = performance.now();
  await eb.init();
  const missing = ['EditStream', 'renderEditBlock'].filter((name) => typeof eb[name] !== 'function');
  if (missing.length) {
    setStatus(`This build of the package lacks ${missing.join(', ')}; rebuild with node scripts/build.mjs.`, true);
    setPhase('error');
    return;
  }
  setStatus(`Ready: the WebAssembly module loaded in ${(performance.now() - t0).toFixed(0)} ms.`);
  setPhase('ready');

  $('stream').addEventListener('click', () => {
    resetFiles();
    streamReply($('reply').value).catch(fail);
  });
  $('instant').addEventListener('click', () => {
    resetFiles();
    const text = $('reply').value;
    const blocks = eb.parseEdits ? eb.parseEdits(text) : [];
    const review = $('review').checked && typeof eb.renderFileChange === 'function';
    (review ? reviewAndShow : applyAndShow)(text, blocks).catch(fail);
  });
  $('stop').addEventListener('click', () => {
    if (state.run) state.run.cancelled = true;
    state.run = null;
    setButtons(false);
    setStatus('Stopped. Nothing was applied.');
    setPhase('ready');
  });
  $('reset').addEventListener('click', () => {
    resetFiles();
    setStatus('The project is back to its original files.');
  });
  if (params.get('autoplay')) $('stream').click();
}

function fail(error) {
  console.error(error);
  setStatus(`Something went wrong: ${error && error.message ? error.message : error}`, true);
  setPhase('error');
  setButtons(false);
}

main().catch(fail);
