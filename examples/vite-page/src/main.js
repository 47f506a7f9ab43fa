// Streams a model reply into the page: the block being written is drawn as
// it grows, each finished block gets Accept / Reject, and accepting applies
// it to a small in-memory project. Swap `streamReply` for your model's stream.
import 'editblocks/style.css';
import { init, EditStream, applyEdits, renderEditBlock, renderInProgressEditBlock, renderEditsSummary } from 'editblocks';
import { REPLY, PROJECT } from './reply.js';

await init(); // Vite copies editblocks_bg.wasm and rewrites its URL

const files = new Map(Object.entries(PROJECT));
const host = {
  readFile: (path) => files.get(path) ?? null,
  writeFile: (path, content) => void files.set(path, content),
};
const blocksView = document.getElementById('blocks');
const summaryView = document.getElementById('summary');
const blocks = [];
const decisions = []; // per block: undefined, or the result to show

/** Stands in for a model's streamed reply: small chunks, a few milliseconds apart. */
async function* streamReply(text) {
  for (let i = 0; i < text.length; i += 9) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    yield text.slice(i, i + 9);
  }
}

function draw(pending) {
  blocksView.innerHTML = blocks.map((block, i) => {
    const buttons = decisions[i] === undefined && pending === undefined
      ? `<div class="choices"><button data-accept="${i}">Accept</button> <button data-reject="${i}">Reject</button></div>`
      : '';
    return renderEditBlock(block, decisions[i] ? [decisions[i]] : undefined) + buttons;
  }).join('') + (pending ? renderInProgressEditBlock(pending) : '');
  const decided = decisions.filter(Boolean);
  summaryView.innerHTML = decided.length ? renderEditsSummary(decided) : '';
}

blocksView.addEventListener('click', async (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const accept = target.dataset.accept;
  const reject = target.dataset.reject;
  if (accept !== undefined) {
    const result = await applyEdits([blocks[Number(accept)]], host);
    decisions[Number(accept)] = { ...result.results[0], blockIndex: Number(accept) };
  } else if (reject !== undefined) {
    const block = blocks[Number(reject)];
    decisions[Number(reject)] = { filePath: block.filePath, status: 'skipped', reason: 'Rejected.', blockIndex: Number(reject) };
  } else return;
  draw(undefined);
  window.__example = { files: Object.fromEntries(files), decisions };
});

const stream = new EditStream();
for await (const chunk of streamReply(REPLY)) {
  for (const event of stream.feed(chunk)) if (event.type === 'block-complete') blocks.push(event.block);
  draw(stream.pending() ?? undefined);
}
stream.finish();
draw(undefined);
document.body.dataset.ready = 'true';
window.__example = { files: Object.fromEntries(files), decisions };
