// The public API shared by every entry point. Each feature lives in its own
// module; the entries (entry-node.js, entry-web.js) add loading and Node-only parts.
export { parseEdits, detectFormat, EditStream } from './parser.js';
export * from './apply.js';
export * from './tools.js';
export * from './hashline.js';
export * from './render.js';
export { applyPreviewDelta, EditPreview, ToolCallPreview } from './preview.js';
export * from './common.js';
export { HostFailureError } from './host-driver.js';
export { vscodeHost } from './vscode-host.js';
