// Type-checks a tool loop per provider against the official SDKs' own types:
// what each SDK returns goes into applyToolCalls unconverted, toolSchemas
// fits each SDK's tool type, and toolResultMessages fits the messages each
// API takes back.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseInputItem, Tool as ResponsesTool } from 'openai/resources/responses/responses';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { GoogleGenAI } from '@google/genai';
import type { Content, FunctionDeclaration, Part } from '@google/genai';
import { applyToolCalls, toolResultMessages, toolSchemas, nodeHost, EditSession } from 'editblocks';
import type { ToolApplyResult } from 'editblocks';

const host = nodeHost('.');

export async function openaiChat(client: OpenAI): Promise<void> {
  const tools: ChatCompletionTool[] = toolSchemas('search_replace_multi', { api: 'openai' });
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Fix the bug.' }];
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages, tools });
  const message = completion.choices[0]!.message;
  messages.push(message);
  // The union of function and custom tool calls, as the SDK types it.
  const result: ToolApplyResult = await applyToolCalls(message.tool_calls ?? [], host);
  messages.push(...toolResultMessages(result, { api: 'openai' }));
}

export async function openaiResponses(client: OpenAI): Promise<void> {
  const tools: ResponsesTool[] = [
    ...toolSchemas('apply_patch', { api: 'openai-responses' }),
    ...toolSchemas('search_replace', { api: 'openai-responses' }),
  ];
  const input: ResponseInputItem[] = [{ role: 'user', content: 'Fix the bug.' }];
  const response = await client.responses.create({ model: 'gpt-5', input, tools });
  const result = await applyToolCalls(response.output, host);
  // The answers, per call_id, continue the response.
  const answers: ResponseInputItem[] = toolResultMessages(result, { api: 'openai-responses' });
  await client.responses.create({ model: 'gpt-5', previous_response_id: response.id, input: answers, tools });
}

export async function anthropic(client: Anthropic): Promise<void> {
  const tools: ToolUnion[] = [
    ...toolSchemas('text_editor', { api: 'anthropic', maxCharacters: 20000 }),
    ...toolSchemas('search_replace', { api: 'anthropic' }),
  ];
  const messages: MessageParam[] = [{ role: 'user', content: 'Fix the bug.' }];
  const session = new EditSession();
  const reply = await client.messages.create({ model: 'claude-sonnet-5', max_tokens: 4096, tools, messages });
  messages.push({ role: 'assistant', content: reply.content });
  // tool_use blocks with `input: unknown`, among text blocks.
  const result = await applyToolCalls(reply.content, host, { session });
  messages.push(...toolResultMessages(result, { api: 'anthropic' }));
}

export async function gemini(ai: GoogleGenAI): Promise<void> {
  const declarations: FunctionDeclaration[] = toolSchemas('gemini_cli', { api: 'gemini' });
  const hashline: FunctionDeclaration[] = toolSchemas('hashline', { api: 'gemini' });
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Fix the bug.' }] }];
  const response = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents, config: { tools: [{ functionDeclarations: [...declarations, ...hashline] }] } });
  const parts: Part[] = response.candidates?.[0]?.content?.parts ?? [];
  // FunctionCall has an optional name and id.
  const result = await applyToolCalls(response.functionCalls ?? [], host);
  const fromParts = await applyToolCalls(parts, host, { dryRun: true });
  contents.push(...toolResultMessages(result, { api: 'gemini' }), ...toolResultMessages(fromParts, { api: 'gemini' }));
}
