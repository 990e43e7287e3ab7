/** What a turn service needs to keep requests inside the model's context window. */
import type { ContextEngine, MaybePromise } from '@hermes/protocol';
import type { TokenCalibration } from './token-estimate.js';

/** A stored summary: the first `headCount` transcript messages, the summary, then the transcript from `keepFrom`. */
export interface StoredContextSummary {
  headCount: number;
  keepFrom: number;
  summary: string;
}

/** Where summaries are kept (the store's context_summaries satisfy it, sync on SQLite, async on PostgreSQL). */
export interface ContextSummariesPort {
  latest(sessionId: string): MaybePromise<StoredContextSummary | null>;
  save(sessionId: string, summary: StoredContextSummary): MaybePromise<void>;
}

export const CONTEXT_LENGTH_DEFAULT = 128_000;
export const CONTEXT_THRESHOLD_DEFAULT = 0.75;
export const PROTECT_LAST_N_DEFAULT = 20;

export interface ContextSettings {
  /** the engine `context.engine` names (the built-in `compressor` by default) */
  engine: ContextEngine;
  /** model.context_length, else the default (128000) */
  contextLength: number;
  /** true when model.context_length was set: it wins over a provider profile's contextLength */
  contextLengthSet?: boolean;
  /** context.threshold */
  threshold: number;
  /** context.protect_last_n */
  protectLastN: number;
  /** context.hard_message_limit: a request with more messages is compressed whatever its tokens (0 or absent: none) */
  hardMessageLimit?: number;
  /** auxiliary.compression.model (absent: the turn's model) */
  summaryModel?: string | undefined;
  /** the stored summaries (absent: compression lasts one turn) */
  summaries?: ContextSummariesPort | undefined;
}

/** The calibration a turn service keeps across turns, with the settings. */
export interface ContextRuntime extends ContextSettings {
  calibration: TokenCalibration;
}
