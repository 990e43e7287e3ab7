/**
 * The built-in context engine, `compressor`: keeps the first exchange (the head) and the last
 * `context.protect_last_n` messages, and has the model summarize what lies between (an earlier
 * summary included, so it folds into the new one). Cuts never separate tool calls from their results.
 */
import type { ContextCompression, ContextEngine, ContextEngineInput } from '@hermes/protocol';
import { headEnd, lastExchangesStart, nextSafeBoundary, safeBoundary } from './cut.js';

export const COMPRESSOR = 'compressor';

/** the share of the budget the summary is expected to take, for deciding how much more to cut */
export const SUMMARY_SHARE = 0.2;

/**
 * Where the compressor cuts: the head's end and the first kept message (no model call). The tail is
 * the last `protect_last_n` messages or the last WHOLE_EXCHANGES exchanges, whichever is longer.
 * When that does not fit the budget, the head goes into the summary too; the whole exchanges give
 * way (oldest message first) only while they would pass the model's window itself.
 */
export function compressorCut(input: ContextEngineInput): { keepHead: number; keepFrom: number } | null {
  const { messages } = input;
  const n = messages.length;
  let keepHead = headEnd(messages);
  const whole = lastExchangesStart(messages);
  let keepFrom = Math.min(safeBoundary(messages, Math.max(keepHead, n - input.protectLastN), keepHead), whole);
  const summaryTokens = Math.ceil(input.budget * SUMMARY_SHARE);
  const size = (from: number) =>
    input.fixedTokens +
    input.estimateTokens(messages.slice(0, keepHead)) +
    summaryTokens +
    input.estimateTokens(messages.slice(from));
  // still too large with the protected tail? keep fewer of the last messages, down to the whole exchanges
  while (keepFrom < whole && size(keepFrom) > input.budget) keepFrom = nextSafeBoundary(messages, keepFrom);
  keepFrom = Math.max(keepFrom, keepHead);
  if (size(keepFrom) > input.budget && keepHead > 0 && keepHead <= whole) keepHead = 0;
  // the whole exchanges alone pass the window: they give way, oldest first (always the last message)
  while (keepFrom < n - 1 && size(keepFrom) > input.contextLength) {
    const next = nextSafeBoundary(messages, keepFrom);
    if (next >= n) break;
    keepFrom = next;
  }
  return keepFrom > keepHead ? { keepHead, keepFrom } : null;
}

export const compressor: ContextEngine = {
  name: COMPRESSOR,
  async compress(input: ContextEngineInput): Promise<ContextCompression | null> {
    const cut = compressorCut(input);
    if (cut === null) return null;
    const summary = await input.summarize(input.messages.slice(cut.keepHead, cut.keepFrom));
    return { ...cut, summary };
  },
};
