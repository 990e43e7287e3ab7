/**
 * The Responses API's objects as OpenAI sends them: the `response` object, and the SSE events of
 * a streamed one (`response.created`, `response.in_progress`, `response.output_item.added`,
 * `response.content_part.added`, `response.output_text.delta`…, `response.output_text.done`,
 * `response.content_part.done`, `response.output_item.done`, then `response.completed` or
 * `response.failed`), each with its `sequence_number`.
 */
import type { TokenUsage } from '@hermes/agent';

export interface ResponseMeta {
  id: string;
  /** the message output item's id */
  itemId: string;
  createdAt: number;
  model: string;
  instructions: string | null;
  previousResponseId: string | null;
  store: boolean;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  metadata: Record<string, unknown>;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'failed';

function outputText(text: string) {
  return { type: 'output_text' as const, text, annotations: [] as unknown[], logprobs: [] as unknown[] };
}

function messageItem(meta: ResponseMeta, text: string | null, status: 'in_progress' | 'completed') {
  return {
    id: meta.itemId,
    type: 'message' as const,
    status,
    role: 'assistant' as const,
    content: text === null ? [] : [outputText(text)],
  };
}

/** The `response` object: `text` is the answer once there is one (null while in progress or failed). */
export function responseObject(
  meta: ResponseMeta,
  status: ResponseStatus,
  text: string | null,
  usage: TokenUsage | null,
  error: { code: string; message: string } | null = null,
) {
  return {
    id: meta.id,
    object: 'response' as const,
    created_at: meta.createdAt,
    status,
    error,
    incomplete_details: null,
    instructions: meta.instructions,
    max_output_tokens: meta.maxOutputTokens,
    model: meta.model,
    output: text === null ? [] : [messageItem(meta, text, 'completed')],
    output_text: text ?? '',
    parallel_tool_calls: true,
    previous_response_id: meta.previousResponseId,
    store: meta.store,
    temperature: meta.temperature,
    text: { format: { type: 'text' as const } },
    tool_choice: 'auto' as const,
    tools: [] as unknown[],
    top_p: meta.topP,
    truncation: 'disabled' as const,
    usage:
      status === 'in_progress'
        ? null
        : {
            input_tokens: usage?.prompt_tokens ?? 0,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: usage?.completion_tokens ?? 0,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage?.total_tokens ?? 0,
          },
    metadata: meta.metadata,
  };
}

/** Writes the events of one streamed response to `write` (each `event:` + `data:` block). */
export function responseEvents(meta: ResponseMeta, write: (chunk: string) => void, redact: (text: string) => string) {
  let sequence = 0;
  let text = '';
  const at = { item_id: meta.itemId, output_index: 0, content_index: 0 };
  const send = (type: string, fields: Record<string, unknown>) =>
    write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
  return {
    start() {
      const response = responseObject(meta, 'in_progress', null, null);
      send('response.created', { response });
      send('response.in_progress', { response });
      send('response.output_item.added', { output_index: 0, item: messageItem(meta, null, 'in_progress') });
      send('response.content_part.added', { ...at, part: outputText('') });
    },
    delta(raw: string) {
      const delta = redact(raw);
      text += delta;
      send('response.output_text.delta', { ...at, delta, logprobs: [] });
    },
    /** the turn answered: `final` is its whole (redacted) text */
    completed(final: string, usage: TokenUsage | null) {
      // the streamed deltas were redacted one by one: the done events carry the whole answer's redaction
      const whole = final || text;
      send('response.output_text.done', { ...at, text: whole, logprobs: [] });
      send('response.content_part.done', { ...at, part: outputText(whole) });
      send('response.output_item.done', { output_index: 0, item: messageItem(meta, whole, 'completed') });
      send('response.completed', { response: responseObject(meta, 'completed', whole, usage) });
    },
    failed(code: string, message: string, usage: TokenUsage | null) {
      send('response.failed', { response: responseObject(meta, 'failed', null, usage, { code, message }) });
    },
  };
}
