// Pure builders of the OpenAI Chat Completions response bodies the fake sends.
import type { TextReply, ToolCallsReply } from './openai-reply.js';

export interface AssistantToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A success reply resolved to what the model "said". */
export interface Answer {
  content: string | null;
  toolCalls: AssistantToolCall[];
  finishReason: 'stop' | 'length' | 'content_filter' | 'tool_calls';
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** `reasoning_content` */
  reasoning?: string;
}

/** Identity of one response: shared by every chunk of a stream. */
export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
}

const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** Resolves a text/tool-calls reply to an Answer; `nextCallId` numbers tool calls without an id. */
export function toAnswer(reply: TextReply | ToolCallsReply, promptText: string, nextCallId: () => string): Answer {
  const toolCalls: AssistantToolCall[] =
    'toolCalls' in reply
      ? reply.toolCalls.map((call) => ({
          id: call.id ?? nextCallId(),
          type: 'function',
          function: {
            name: call.name,
            arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          },
        }))
      : [];
  const content = 'toolCalls' in reply ? (reply.text ?? null) : reply.text;
  const finishReason = 'toolCalls' in reply ? 'tool_calls' : (reply.finishReason ?? 'stop');
  const said = (content ?? '') + toolCalls.map((c) => c.function.name + c.function.arguments).join('');
  const prompt = reply.usage?.prompt_tokens ?? estimateTokens(promptText);
  const completion = reply.usage?.completion_tokens ?? estimateTokens(said);
  return {
    content,
    toolCalls,
    finishReason,
    ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** A full non-streamed `chat.completion` object. */
export function completionBody(answer: Answer, meta: ResponseMeta): object {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.content,
    refusal: null,
    annotations: [],
  };
  if (answer.toolCalls.length > 0) message.tool_calls = answer.toolCalls;
  if (answer.reasoning !== undefined) message.reasoning_content = answer.reasoning;
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage: answer.usage,
    system_fingerprint: 'fp_fake',
  };
}

/** Splits `text` into up to `pieces` non-empty parts on code-point boundaries (none for ''). */
export function splitPieces(text: string, pieces = 3): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [];
  const size = Math.max(1, Math.ceil(points.length / pieces));
  const parts: string[] = [];
  for (let i = 0; i < points.length; i += size) parts.push(points.slice(i, i + size).join(''));
  return parts;
}

/**
 * The `chat.completion.chunk` objects of a streamed answer, in order: role delta, content pieces,
 * per tool call a header delta (index, id, name) then argument pieces, the finish_reason chunk,
 * and with `includeUsage` a final usage chunk (other chunks then carry `usage: null`).
 */
export function completionChunks(answer: Answer, meta: ResponseMeta, includeUsage: boolean): object[] {
  const chunk = (delta: object, finishReason: string | null = null): object => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: answer.content === null ? null : '', refusal: null })];
  for (const piece of splitPieces(answer.reasoning ?? '')) chunks.push(chunk({ reasoning_content: piece }));
  for (const piece of splitPieces(answer.content ?? '')) chunks.push(chunk({ content: piece }));
  answer.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    for (const piece of splitPieces(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, answer.finishReason));
  if (includeUsage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: 'fp_fake',
      choices: [],
      usage: answer.usage,
    });
  }
  return chunks;
}
