import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { VerifyResult } from './verification';

/**
 * The `openai` provider: any OpenAI-compatible chat-completions server at OPENAI_BASE_URL. One
 * transport retry for connection errors and 5xx (the SDK's); validation retries are the caller's.
 */
export function openaiClient(baseUrl: string, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 1, timeout: 60_000 });
}

/** The cheapest authenticated call: list the models. */
export async function verifyOpenAiKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  try {
    await openaiClient(baseUrl, apiKey).models.list();
    return { ok: true };
  } catch (err) {
    if (err instanceof OpenAI.APIError && (err.status === 401 || err.status === 403))
      return { ok: false, error: `openai rejected the key (HTTP ${err.status})` };
    if (err instanceof OpenAI.APIError && err.status) return { ok: false, error: `openai answered HTTP ${err.status}` };
    return { ok: false, error: 'openai could not be reached' };
  }
}

export interface ToolCallRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  tool: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The forced tool call's id and raw arguments (JSON text), or null arguments when the model did not call it. */
export interface ToolCallAnswer {
  id: string | null;
  arguments: string | null;
}

/** One chat completion that must call `tool`; transport failures throw OpenAI.APIError. */
export async function callTool(client: OpenAI, req: ToolCallRequest): Promise<ToolCallAnswer> {
  const completion = await client.chat.completions.create({
    model: req.model,
    temperature: 0,
    messages: req.messages,
    tools: [{ type: 'function', function: { name: req.tool.name, description: req.tool.description, parameters: req.tool.parameters } }],
    tool_choice: { type: 'function', function: { name: req.tool.name } },
  });
  const call = completion.choices[0]?.message?.tool_calls?.find((c) => c.type === 'function' && c.function.name === req.tool.name);
  if (!call || call.type !== 'function') return { id: null, arguments: null };
  return { id: call.id, arguments: call.function.arguments };
}
