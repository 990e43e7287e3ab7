/**
 * The built-in context engine, `compressor`: keeps the first exchange (the head) and the last
 * `context.protect_last_n` messages, and has the model summarize what lies between (an earlier
 * summary included, so it folds into the new one). Cuts never separate tool calls from their results.
 */
import type { ContextCompression, ContextEngine, ContextEngineInput } from '@hermes/protocol';
import { headEnd, nextSafeBoundary, safeBoundary } from './cut.js';

export const COMPRESSOR = 'compressor';

/** the share of the budget the summary is expected to take, for deciding how much more to cut */
export const SUMMARY_SHARE = 0.2;

/** Where the compressor cuts: the head's end and the first kept message (no model call). */
export function compressorCut(input: ContextEngineInput): { keepHead: number; keepFrom: number } | null {
  const { messages } = input;
  const n = messages.length;
  const keepHead = headEnd(messages);
  let keepFrom = safeBoundary(messages, Math.max(keepHead, n - input.protectLastN), keepHead);
  // still too large with the protected tail? keep fewer of the last messages (always the last one)
  const summaryTokens = Math.ceil(input.budget * SUMMARY_SHARE);
  const fits = (from: number) =>
    input.fixedTokens +
      input.estimateTokens(messages.slice(0, keepHead)) +
      summaryTokens +
      input.estimateTokens(messages.slice(from)) <=
    input.budget;
  while (keepFrom < n - 1 && !fits(keepFrom)) {
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
