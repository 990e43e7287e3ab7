/**
 * The model-written summary of a stretch of history: the messages rendered as plain lines, in
 * pieces that fit the model's context, each piece summarized together with the summary so far
 * (so an earlier summary folds into the new one and a huge middle never becomes one huge request).
 */
import { type ChatMessage, ERROR_CODES, HermesError } from '@hermes/protocol';
import type { ModelClient } from '../model-client.js';
import { textTokens } from './token-estimate.js';

/** How a summary message starts: the model and the tests can tell it from a user's words. */
export const SUMMARY_PREFIX = '[Summary of the earlier conversation, written to fit the context window]\n';

/** The summarizer's instructions (a fake model recognises a summary request by them). */
export const SUMMARY_INSTRUCTIONS =
  'You compress a conversation so an assistant can continue it. Write a concise summary that keeps ' +
  'every fact, name, number, preference, decision and open task the user, the assistant or a tool ' +
  'stated, including those of the earlier summary. Plain text, no preamble.';

/** The summary message that stands for the summarized stretch in the history. */
export function summaryMessage(summary: string): ChatMessage {
  return { role: 'user', content: `${SUMMARY_PREFIX}${summary}` };
}

/** One message as a line of the text to summarize. */
export function renderMessage(m: ChatMessage): string {
  if (m.role === 'user' && m.content.startsWith(SUMMARY_PREFIX)) {
    return `Earlier summary: ${m.content.slice(SUMMARY_PREFIX.length)}`;
  }
  if (m.role === 'tool') return `Tool ${m.name ?? m.tool_call_id} returned: ${m.content}`;
  if (m.role === 'assistant') {
    const calls = (m.tool_calls ?? []).map((c) => `Assistant called ${c.function.name}(${c.function.arguments})`);
    return [...(m.content ? [`Assistant: ${m.content}`] : []), ...calls].join('\n');
  }
  return `${m.role === 'user' ? 'User' : 'System'}: ${m.content}`;
}

export interface SummarizerOptions {
  client: Pick<ModelClient, 'complete'>;
  /** auxiliary.compression.model, else the turn's model */
  model: string;
  sessionId: string;
  /** the most tokens one summary request may carry (its text and the summary so far) */
  pieceTokens: number;
  /** the summary's max_tokens */
  maxTokens: number;
  signal: AbortSignal;
}

/** Splits rendered lines into pieces of at most `tokens` each (a longer line is cut). */
function pieces(lines: readonly string[], tokens: number): string[] {
  const limit = Math.max(200, tokens * 4);
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    for (let at = 0; at < Math.max(1, line.length); at += limit) {
      const part = line.slice(at, at + limit);
      if (current !== '' && current.length + part.length + 1 > limit) {
        out.push(current);
        current = '';
      }
      current = current === '' ? part : `${current}\n${part}`;
    }
  }
  if (current !== '') out.push(current);
  return out;
}

/** Summarizes `messages` with the model; throws a HermesError when the model does not answer. */
export async function summarize(messages: readonly ChatMessage[], options: SummarizerOptions): Promise<string> {
  let summary = '';
  const room = Math.max(200, options.pieceTokens - 2 * options.maxTokens - textTokens(SUMMARY_INSTRUCTIONS));
  for (const text of pieces(messages.map(renderMessage), room)) {
    const step = await options.client.complete({
      body: {
        model: options.model,
        messages: [
          { role: 'system', content: SUMMARY_INSTRUCTIONS },
          { role: 'user', content: summary === '' ? text : `Earlier summary: ${summary}\n${text}` },
        ],
        max_tokens: options.maxTokens,
      },
      sessionId: options.sessionId,
      signal: options.signal,
    });
    const answer = (step.content ?? '').trim();
    if (answer === '') throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'the model returned an empty summary');
    summary = answer;
  }
  return summary;
}
