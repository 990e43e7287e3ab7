/**
 * Stage 6a, batching: one user's messages in one chat that arrive within `gateway.batch_ms` of each
 * other are joined into one lane job (Telegram and Discord cut a long paste into several messages),
 * instead of each interrupting the one before. Every message is in the inbox already; the joined
 * job carries the other messages' inbox ids (`joined`), settled with the answer's transcript and
 * outbox rows (turn.ts), so a crash before that commit leaves all of them pending (the next start
 * joins them again and answers once) and a crash after it resends the one answer.
 * Only a message that may be the first part of a cut paste (its text at least SPLIT_PART_SHARE of the
 * platform's message limit: the apps cut at the limit) opens a batch; any message joins an open one.
 * So an ordinary message is never held back. With `batch_ms` 0 a message goes to its lane at once.
 */
import type { Attachment, MessageEvent } from '@hermes/protocol';
import type { LaneJob } from './input.js';

/** a batch is cut after this many messages, or this many windows after its first message */
export const MAX_BATCH_MESSAGES = 50;
export const MAX_BATCH_WINDOWS = 4;
/** a message at least this share of the platform's limit may be a cut part of a longer paste */
export const SPLIT_PART_SHARE = 0.8;

/** Whether `text` may be the first part of a paste the platform's app cut at `limit` characters. */
export function mayBeCutPart(text: string, limit: number): boolean {
  return text.length >= SPLIT_PART_SHARE * limit;
}

interface OpenBatch {
  jobs: LaneJob[];
  startedAt: number;
  timer: NodeJS.Timeout;
}

export interface BatcherOptions {
  batchMs: number;
  /** hands the (joined) job to the session's lane */
  submit(job: LaneJob): void;
  /** whether this message opens a batch (absent: every message does); one that does not is not held */
  opens?(job: LaneJob): boolean;
  /** parts `/stop` or `/new` dropped before their turn started: the owner finishes them */
  onDrop?(jobs: LaneJob[]): void;
  now?: () => number;
}

/** Joins jobs of one batch: the first message's event (its reply target), the texts one per line, every attachment. */
export function joinJobs(jobs: readonly LaneJob[]): LaneJob {
  const [first, ...rest] = jobs;
  if (first === undefined) throw new Error('joinJobs: no jobs');
  if (rest.length === 0) return first;
  const text = jobs
    .map((j) => j.text)
    .filter((t) => t !== '')
    .join('\n');
  const attachments: Attachment[] = jobs.flatMap((j) => j.event.attachments ?? []);
  const event: MessageEvent = attachments.length > 0 ? { ...first.event, text, attachments } : { ...first.event, text };
  const joined = [...(first.joined ?? []), ...rest.flatMap((j) => [j.inboxId, ...(j.joined ?? [])])];
  return { ...first, event, text, joined };
}

export class MessageBatcher {
  readonly #options: BatcherOptions;
  readonly #open = new Map<string, OpenBatch>();
  readonly #now: () => number;
  #idle: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(options: BatcherOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Batches still waiting for their window to close. */
  get waiting(): number {
    return this.#open.size;
  }

  /** Resolves once no batch is waiting. */
  idle(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    if (this.#idle === null) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  add(job: LaneJob): void {
    const { batchMs } = this.#options;
    if (batchMs <= 0) {
      this.#options.submit(job);
      return;
    }
    const key = `${job.sessionKey}\u0000${job.event.source.chatId}\u0000${job.event.source.userId}`;
    const open = this.#open.get(key);
    const now = this.#now();
    if (open === undefined) {
      if (this.#options.opens !== undefined && !this.#options.opens(job)) {
        this.#options.submit(job);
        return;
      }
      const timer = setTimeout(() => this.#flush(key), batchMs);
      this.#open.set(key, { jobs: [job], startedAt: now, timer });
      return;
    }
    open.jobs.push(job);
    clearTimeout(open.timer);
    const full = open.jobs.length >= MAX_BATCH_MESSAGES;
    // the window slides with each part, up to MAX_BATCH_WINDOWS windows after the first one
    const wait = Math.min(batchMs, open.startedAt + batchMs * MAX_BATCH_WINDOWS - now);
    if (full || wait <= 0) this.#flush(key);
    else open.timer = setTimeout(() => this.#flush(key), wait);
  }

  /** Drops the session's waiting parts (`/stop`, `/new`); true when there were any. */
  drop(sessionKey: string): boolean {
    const dropped: LaneJob[] = [];
    for (const [key, open] of [...this.#open]) {
      if (!key.startsWith(`${sessionKey}\u0000`)) continue;
      clearTimeout(open.timer);
      this.#open.delete(key);
      dropped.push(...open.jobs);
    }
    if (dropped.length > 0) this.#options.onDrop?.(dropped);
    this.#resolveIdle();
    return dropped.length > 0;
  }

  /** Submits every open batch now (the gateway stops accepting). */
  flushAll(): void {
    for (const key of [...this.#open.keys()]) this.#flush(key);
  }

  #flush(key: string): void {
    const open = this.#open.get(key);
    if (open === undefined) return;
    clearTimeout(open.timer);
    this.#open.delete(key);
    this.#options.submit(joinJobs(open.jobs));
    this.#resolveIdle();
  }

  #resolveIdle(): void {
    if (this.#open.size === 0 && this.#idle !== null) {
      this.#idle.resolve();
      this.#idle = null;
    }
  }
}
