/** A streamed Chat Completions answer folded into one model step. */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelStep } from './model-client.js';
import { ReasoningStreamFilter, splitReasoning } from './reasoning.js';

/** Tool calls one streamed step may carry (indices 0 to this - 1). */
export const MAX_STREAM_TOOL_CALLS = 1_000;

/**
 * Folds a chunk stream into one step, calling onText with each content delta's visible part: the
 * thinking (a reasoning field, a think block) is kept apart and never streamed to the chat.
 */
export async function accumulateStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onText: (t: string) => void,
): Promise<ModelStep> {
  let content = '';
  let thinking = '';
  let sawContent = false;
  const filter = new ReasoningStreamFilter();
  let finishReason: string | null = null;
  let usage: ModelStep['usage'] = null;
  let sawChoice = false;
  const calls: { id: string; name: string; args: string }[] = [];
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    const delta = choice.delta as (typeof choice)['delta'] & { reasoning_content?: unknown; reasoning?: unknown };
    const thought = delta?.reasoning_content ?? delta?.reasoning;
    if (typeof thought === 'string') thinking += thought;
    if (typeof delta?.content === 'string' && delta.content.length > 0) {
      sawContent = true;
      content += delta.content;
      const visible = filter.push(delta.content);
      if (visible !== '') onText(visible);
    }
    for (const piece of delta?.tool_calls ?? []) {
      // the index addresses an array slot: a huge one would make a sparse array whose walk blocks the loop
      if (!Number.isInteger(piece.index) || piece.index < 0 || piece.index >= MAX_STREAM_TOOL_CALLS) {
        throw new HermesError(ERROR_CODES.MODEL_RESPONSE, `model stream sent tool call index ${String(piece.index)}`, {
          retryable: true,
        });
      }
      let slot = calls[piece.index];
      if (!slot) {
        slot = { id: '', name: '', args: '' };
        calls[piece.index] = slot;
      }
      if (piece.id) slot.id = piece.id;
      if (piece.function?.name) slot.name += piece.function.name;
      if (piece.function?.arguments) slot.args += piece.function.arguments;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!sawChoice) throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model stream had no choices', { retryable: true });
  const tail = filter.end();
  if (tail !== '') onText(tail);
  const split = splitReasoning(sawContent ? content : null);
  const reasoning = [thinking, split.reasoning ?? ''].filter((r) => r.trim() !== '').join('\n\n');
  return {
    content: split.text,
    ...(reasoning !== '' ? { reasoning } : {}),
    toolCalls: calls
      .filter((c) => c !== undefined)
      .map((c, i) => ({
        id: c.id || `call_${i}`,
        type: 'function' as const,
        function: { name: c.name, arguments: c.args },
      })),
    finishReason,
    usage,
  };
}
