/**
 * Token estimates: about four characters a token plus a few tokens per message, measured once per
 * message object (a WeakMap), so a long history is not re-measured on every request (a frozen
 * history's total is kept from turn to turn, frozen-runs.ts); and a
 * per-model calibration from the `usage.prompt_tokens` the model reports.
 */
import type { ChatMessage } from '@hermes/protocol';
import { FrozenRuns } from '../frozen-runs.js';
import type { RequestMessage } from '../user-content.js';

/** what a message costs besides its text (role, separators) */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** what an image part is counted as (its data: URL is not text the model reads) */
export const IMAGE_PART_TOKENS = 800;
const CHARS_PER_TOKEN = 4;

const measured = new WeakMap<object, number>();

/** The estimate of a text alone. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function contentTokens(content: unknown): number {
  if (typeof content === 'string') return textTokens(content);
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const part of content as { type?: string; text?: string }[]) {
    tokens += part.type === 'text' ? textTokens(part.text ?? '') : IMAGE_PART_TOKENS;
  }
  return tokens;
}

/** The uncalibrated estimate of one message (measured once per message object). */
export function messageTokens(message: RequestMessage | ChatMessage): number {
  const known = measured.get(message);
  if (known !== undefined) return known;
  let tokens = MESSAGE_OVERHEAD_TOKENS + contentTokens(message.content);
  if (message.role === 'assistant' && 'tool_calls' in message && Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (call.type === 'function')
        tokens += MESSAGE_OVERHEAD_TOKENS + textTokens(call.function.name + call.function.arguments);
    }
  }
  if (message.role === 'tool') tokens += textTokens(message.tool_call_id);
  measured.set(message, tokens);
  return tokens;
}

/** Running totals of runs of frozen messages (a long chat's history), kept from turn to turn. */
const runs = new FrozenRuns<number[], number>({
  create: () => [],
  push: (totals, message) => {
    totals.push((totals.at(-1) ?? 0) + messageTokens(message as ChatMessage));
  },
  read: (totals, length) => totals[length - 1] ?? 0,
});

/** The uncalibrated estimate of a message list (a frozen history's total kept from the last turn). */
export function messagesTokens(messages: readonly (RequestMessage | ChatMessage)[]): number {
  let sum = 0;
  let i = 0;
  while (i < messages.length) {
    const run = runs.read(messages, i);
    sum += run?.value ?? messageTokens(messages[i] as ChatMessage);
    i += run?.length ?? 1;
  }
  return sum;
}

/** Reported ÷ estimated prompt tokens per model, smoothed; 1 until the model has reported usage. */
export class TokenCalibration {
  readonly #ratio = new Map<string, number>();

  ratio(model: string): number {
    return this.#ratio.get(model) ?? 1;
  }

  /** `estimated`: the uncalibrated estimate of the request the model answered; `reported`: its prompt_tokens */
  observe(model: string, estimated: number, reported: number): void {
    if (!(estimated > 0) || !(reported > 0)) return;
    const seen = Math.min(4, Math.max(0.25, reported / estimated));
    const before = this.#ratio.get(model);
    this.#ratio.set(model, before === undefined ? seen : (before + seen) / 2);
  }

  /** a calibrated estimate, rounded up */
  apply(model: string, estimated: number): number {
    return Math.ceil(estimated * this.ratio(model));
  }
}
