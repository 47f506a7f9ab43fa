// Type-checks the whole public contract as a consumer would write it.
import {
  parseEdits, detectFormat, EditStream, applyEdits, applyEditsSync, applyToContent, validateEdit, nodeHost,
  toolSchemas, applyToolCalls, fileStatus, retryContext, lineId, formatHashlines, applyHashlineEdit,
  diffBlock, renderEditBlock, renderInProgressEditBlock, renderEditsSummary, detectShellSuggestions, systemPrompt,
  init, initSync,
} from 'editblocks';
import type { EditBlock, EditResult, ApplyResult, FileHost, Format, StreamEvent, Status } from 'editblocks';

const reply = 'src/a.py\n««« EDIT\nx = 1\n═══════ REPL\nx = 2\n»»» EDIT END\n';
const blocks: EditBlock[] = parseEdits(reply, { formats: ['edit-repl'] });
const format: Format | 'none' = detectFormat(reply);
const stream = new EditStream();
const events: StreamEvent[] = [...stream.feed(reply), ...stream.finish()];
const host: FileHost = {
  readFile: async (path: string) => (path === 'src/a.py' ? 'x = 1\n' : null),
  writeFile: async () => {},
};
async function main(): Promise<void> {
  await init();
  const result: ApplyResult = await applyEdits(reply, host, { dryRun: true, mode: 'atomic', matching: 'tolerant' });
  const first: EditResult | undefined = result.results[0];
  const status: Status | undefined = first?.status;
  const sync: ApplyResult = applyEditsSync(blocks, nodeHost('.'), { inContext: ['src/a.py'] });
  const applied = applyToContent(blocks[0]!, 'x = 1\n');
  const checked = validateEdit(blocks[0]!, 'x = 1\n');
  const schemas: object[] = toolSchemas('search_replace_multi');
  const tools = await applyToolCalls([{ name: 'write_file', arguments: { path: 'a.txt', content: 'hi\n' } }], host);
  const retry: string = retryContext(tools);
  const st: '' | 'M' | 'A' | '~' | '~M' = fileStatus({ context: 'a', local: 'a', output: 'b' });
  const id: string = lineId('const x = 1;');
  const view: string = formatHashlines('a\nb\n', { startLine: 1, endLine: 2 });
  const hashed = await applyHashlineEdit({ path: 'a.txt', edits: [] }, host);
  const lines = diffBlock('a\n', 'b\n');
  const html: string = renderEditBlock(blocks[0]!, result.results) + renderInProgressEditBlock('a.py', ['x']) + renderEditsSummary(result.results);
  const shells: string[] = detectShellSuggestions('`git rm a`');
  const prompt: string = systemPrompt('hashline');
  console.log(format, events.length, status, sync, applied, checked, schemas, st, id, view, hashed, lines, html, shells, prompt, retry);
  if (false as boolean) initSync(new Uint8Array());
}
void main();
