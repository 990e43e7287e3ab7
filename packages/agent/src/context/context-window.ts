/**
 * One turn's context window: before each model request, when the request would pass
 * `context.threshold` × `model.context_length`, holds more messages than `context.hard_message_limit`
 * (once a turn: a tail longer than the limit does not summarize again at every step) or when
 * forced, the context engine compresses the history; the host checks its cut (tool calls stay with their results), cuts further when the
 * result is still too large, stores the summary, and calibrates its estimates from the
 * prompt tokens the model reports. An engine that throws never loses the turn: the request goes
 * out uncompressed. The estimate decides when to compress, not what the model accepts: a request
 * still over model.context_length after compression is sent (logged), and only when the model
 * then refuses it (a context-length 400, retried once forced) does the turn fail with
 * HERMES_CONTEXT_TOO_LARGE.
 */
import { type ChatMessage, type ContextCompression, ERROR_CODES, HermesError, type Logger } from '@hermes/protocol';
import { InterruptedError, type ModelClient } from '../model-client.js';
import type { RequestMessage } from '../user-content.js';
import { SUMMARY_SHARE } from './compressor.js';
import type { ContextRuntime } from './context-settings.js';
import { lastExchangesStart, nextSafeBoundary, safeBoundary } from './cut.js';
import { summarize, summaryMessage } from './summarize.js';
import { messagesTokens } from './token-estimate.js';

export interface FitStep {
  force: boolean;
  signal: AbortSignal;
  /** this turn's messages so far (runTurn's `turn`: the user message first) */
  turn: readonly ChatMessage[];
}

/** What runTurn asks before each model request. */
export interface ContextFitter {
  /** the messages after the system prompt → what to send */
  fit(messages: readonly RequestMessage[], step: FitStep): Promise<readonly RequestMessage[]>;
  /** the prompt tokens the model reported for the last request fitted */
  observe(promptTokens: number): void;
}

/** What a compression did (the `/compress` reply). */
export interface FitReport {
  compressed: boolean;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** why nothing was compressed, when nothing was */
  reason?: string;
}

export interface ContextWindowOptions {
  runtime: ContextRuntime;
  client: Pick<ModelClient, 'complete'>;
  model: string;
  sessionId: string;
  /** uncalibrated tokens of the system prompt and the tool schemas */
  fixedTokens: number;
  /** the full transcript the turn's history view was built from */
  full: readonly ChatMessage[];
  /** the summary message in the history view, if any */
  summary: ChatMessage | null;
  /** store summaries (a stored session whose turn is appended after it) */
  persist: boolean;
  logger: Logger;
}

/** A plain ChatMessage for the engine (a user message with image parts keeps its text). */
function plain(m: RequestMessage): ChatMessage {
  if (m.role === 'user' && Array.isArray(m.content)) {
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
    return { role: 'user', content: text };
  }
  return m as ChatMessage;
}

export class ContextWindow implements ContextFitter {
  readonly #o: ContextWindowOptions;
  #lastEstimate = 0;
  #origins: Map<object, number> | null = null;
  /** this turn compressed for context.hard_message_limit already */
  #countCompressed = false;
  /** the summary messages this window made (not in the transcript) */
  readonly #made = new WeakSet<object>();
  report: FitReport | null = null;

  constructor(options: ContextWindowOptions) {
    this.#o = options;
  }

  get budget(): number {
    return Math.floor(this.#o.runtime.threshold * this.#o.runtime.contextLength);
  }

  /** the calibrated estimate of a request made of these messages */
  estimate(messages: readonly RequestMessage[]): number {
    const { runtime, model, fixedTokens } = this.#o;
    return runtime.calibration.apply(model, fixedTokens + messagesTokens(messages));
  }

  observe(promptTokens: number): void {
    this.#o.runtime.calibration.observe(this.#o.model, this.#lastEstimate, promptTokens);
  }

  async fit(messages: readonly RequestMessage[], step: FitStep): Promise<readonly RequestMessage[]> {
    const { runtime, model, sessionId, fixedTokens } = this.#o;
    // one pass over the messages (a long chat's history is thousands of them)
    this.#lastEstimate = fixedTokens + messagesTokens(messages);
    const before = runtime.calibration.apply(model, this.#lastEstimate);
    const report = (r: Omit<FitReport, 'messagesBefore' | 'tokensBefore'>) => {
      this.report = { messagesBefore: messages.length, tokensBefore: before, ...r };
    };
    const messageLimit = runtime.hardMessageLimit ?? 0;
    const overCount = messageLimit > 0 && messages.length > messageLimit && !this.#countCompressed;
    if (!step.force && before <= this.budget && !overCount) {
      report({ compressed: false, messagesAfter: messages.length, tokensAfter: before, reason: 'it fits' });
      return messages;
    }
    // what made it compress: the log says so (a count-triggered compression surprises when tokens fit)
    const trigger = step.force ? 'forced' : before > this.budget ? 'tokens' : 'messages';
    if (trigger === 'messages') this.#countCompressed = true;
    const engine = runtime.engine;
    const chat = messages.map(plain);
    let result: ContextCompression | null;
    try {
      result = await engine.compress({
        sessionId,
        model,
        messages: chat,
        contextLength: runtime.contextLength,
        budget: this.budget,
        protectLastN: runtime.protectLastN,
        fixedTokens: runtime.calibration.apply(model, fixedTokens),
        force: step.force,
        estimateTokens: (list) => runtime.calibration.apply(model, messagesTokens(list)),
        summarize: (list) =>
          summarize(list, {
            client: this.#o.client,
            model: runtime.summaryModel ?? model,
            sessionId,
            pieceTokens: this.budget,
            maxTokens: Math.max(64, Math.floor(this.budget * SUMMARY_SHARE)),
            signal: step.signal,
          }),
        signal: step.signal,
      });
    } catch (err) {
      if (step.signal.aborted) throw new InterruptedError();
      const why = `the context engine "${engine.name}" failed: ${err instanceof Error ? err.message : String(err)}`;
      this.#o.logger.warn({ sessionId, engine: engine.name }, `${why}; the history is sent uncompressed if it fits`);
      return this.#unchanged(messages, before, why, report, step.force);
    }
    if (result === null) return this.#unchanged(messages, before, 'there is nothing to compress', report, step.force);
    if (typeof result !== 'object' || typeof result.summary !== 'string') {
      const why = `the context engine "${engine.name}" returned no {keepHead, summary, keepFrom}`;
      this.#o.logger.warn({ sessionId, engine: engine.name }, why);
      return this.#unchanged(messages, before, why, report, step.force);
    }
    const cut = this.#checked(chat, result);
    const summary = summaryMessage(result.summary);
    this.#made.add(summary);
    const build = (from: number): RequestMessage[] => [
      ...messages.slice(0, cut.keepHead),
      summary,
      ...messages.slice(from),
    ];
    let keepFrom = cut.keepFrom;
    let fitted = build(keepFrom);
    // still too large (a long summary, a huge tail): keep fewer of the last messages, down to the
    // whole exchanges while over the budget, into them only while over the window (never the last one)
    const whole = lastExchangesStart(chat);
    const limit = (from: number) => (from < whole ? this.budget : runtime.contextLength);
    while (this.estimate(fitted) > limit(keepFrom) && keepFrom < chat.length - 1) {
      const next = nextSafeBoundary(chat, keepFrom);
      if (next >= chat.length) break;
      keepFrom = next;
      fitted = build(keepFrom);
    }
    const after = this.estimate(fitted);
    if (after > runtime.contextLength) this.#overLimit(after, 'even after compression', step.force);
    await this.#persist(messages, step.turn, cut.keepHead, keepFrom, result.summary);
    this.#lastEstimate = fixedTokens + messagesTokens(fitted);
    report({ compressed: true, messagesAfter: fitted.length, tokensAfter: after });
    this.#o.logger.info(
      {
        sessionId,
        engine: engine.name,
        trigger,
        ...(trigger === 'messages' ? { hardMessageLimit: messageLimit } : {}),
        messagesBefore: messages.length,
        messagesAfter: fitted.length,
        before,
        after,
      },
      'context compressed',
    );
    return fitted;
  }

  #unchanged(
    messages: readonly RequestMessage[],
    before: number,
    reason: string,
    report: (r: Omit<FitReport, 'messagesBefore' | 'tokensBefore'>) => void,
    force: boolean,
  ): readonly RequestMessage[] {
    if (before > this.#o.runtime.contextLength) this.#overLimit(before, `(${reason})`, force);
    report({ compressed: false, messagesAfter: messages.length, tokensAfter: before, reason });
    return messages;
  }

  /**
   * Over the window by the estimate: a forced fit (the model refused the request, or /compress)
   * fails with HERMES_CONTEXT_TOO_LARGE; otherwise the request is sent and the model decides (the
   * estimate and model.context_length's default can both be wrong the safe way).
   */
  #overLimit(tokens: number, why: string, force: boolean): void {
    const error = this.#tooLarge(tokens, why);
    if (force) throw error;
    this.#o.logger.warn({ sessionId: this.#o.sessionId, tokens }, `${error.message}; sent, the model decides`);
  }

  #tooLarge(tokens: number, why: string): HermesError {
    return new HermesError(
      ERROR_CODES.CONTEXT_TOO_LARGE,
      `the request needs about ${tokens} tokens, more than model.context_length (${this.#o.runtime.contextLength}) ${why}`,
    );
  }

  /** The engine's cut made valid: inside the list, the head before the kept part, no tool result cut off. */
  #checked(chat: readonly ChatMessage[], c: ContextCompression): { keepHead: number; keepFrom: number } {
    const n = chat.length;
    const int = (v: number, hi: number) => (Number.isInteger(v) ? Math.min(Math.max(v, 0), hi) : 0);
    const keepHead = safeBoundary(chat, int(c.keepHead, n - 1), 0);
    let keepFrom = safeBoundary(chat, int(c.keepFrom, n - 1), keepHead);
    if (keepFrom < keepHead) keepFrom = keepHead;
    return { keepHead: Math.min(keepHead, keepFrom), keepFrom };
  }

  /** The transcript position of a message of the request (-1: not in the transcript, e.g. a summary). */
  #origin(m: RequestMessage, turn: readonly ChatMessage[]): number {
    const { full, summary } = this.#o;
    if (m === summary || this.#made.has(m)) return -1;
    if (this.#origins === null) this.#origins = new Map(full.map((message, i) => [message, i]));
    const known = this.#origins.get(m);
    if (known !== undefined) return known;
    const inTurn = turn.indexOf(m as ChatMessage);
    // the request's user message is a copy of turn[0] (with injected context or image parts)
    return full.length + (inTurn < 0 ? 0 : inTurn);
  }

  async #persist(
    messages: readonly RequestMessage[],
    turn: readonly ChatMessage[],
    keepHead: number,
    keepFrom: number,
    summary: string,
  ): Promise<void> {
    const store = this.#o.runtime.summaries;
    if (!this.#o.persist || store === undefined) return;
    const headOk = keepHead === 0 || this.#origin(messages[keepHead - 1] as RequestMessage, turn) === keepHead - 1;
    const first = messages[keepFrom];
    // a cut inside this turn is stored as a cut at its start: this turn may not reach the transcript
    // (cut off by a shutdown), and its messages kept after the summary only repeat some of it
    const from = Math.min(first === undefined ? this.#o.full.length : this.#origin(first, turn), this.#o.full.length);
    if (!headOk || from < keepHead) return; // a cut the transcript cannot express: this request only
    await store.save(this.#o.sessionId, { headCount: keepHead, keepFrom: from, summary });
  }
}
