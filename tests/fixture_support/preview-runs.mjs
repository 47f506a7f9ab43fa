// Feeding a preview fixture through the package, shared by the Node tests
// (tests/js/preview-patch-tools.test.mjs, which pass pkg/node) and the page
// the Chromium tests drive (tests/browser/preview-tools.test.mjs, which
// import this file from the served repository and pass pkg/web). No Node
// APIs here: it runs in both. What comes back is checked by the caller.

/**
 * A `ToolCallPreview` named `tool` over `files` (or, with `asyncHost`, a host answering later) fed
 * `chunks` of the arguments' JSON: its events, its last state and the file it composed.
 */
export function runToolPreview(eb, tool, files, chunks, asyncHost = false) {
  const host = { readFile: async (p) => (Object.hasOwn(files, p) ? files[p] : null) };
  const p = new eb.ToolCallPreview(asyncHost ? { name: tool, host } : { name: tool, files });
  const events = [];
  for (const c of chunks) events.push(...p.feed(c));
  events.push(...p.finish());
  const out = { events, state: p.preview(), content: p.previewContent() };
  p.free();
  return out;
}

/**
 * A reply of patches fed in `chunks` to `EditStream({ preview })` over `files`, given as
 * `preview.files` (`how` 'files'), through a host (`'host'`), or through a host answering later
 * (`'async-host'`, a turn given after each chunk): the preview events as they come, and each
 * operation's `[path, final state]`.
 */
export async function runPatchPreview(eb, files, chunks, how) {
  const asyncHost = how === 'async-host';
  const host = {
    readFile: (p) => {
      const v = Object.hasOwn(files, p) ? files[p] : null;
      return asyncHost ? Promise.resolve(v) : v;
    },
  };
  const stream = new eb.EditStream({ preview: how === 'files' ? { files } : { host } });
  const events = [];
  const finals = [];
  const take = (evs) => {
    for (const e of evs) {
      if (e.type === 'block-located' || e.type === 'block-unmatched') events.push(e);
      if ((e.type === 'block-complete' || e.type === 'block-discarded') && e.preview) finals.push([e.block?.filePath ?? e.filePath, e.preview]);
    }
  };
  for (const c of chunks) {
    take(stream.feed(c));
    if (asyncHost) await new Promise((r) => setTimeout(r, 0));
  }
  take(stream.finish());
  return { events, finals };
}
