// Runs inputs in batches against a running daemon: each input has its own deadline (a hang is a
// failure), and after each batch the daemon must be idle with nothing lost (no unfinished inbox row,
// no unsent outbox row, no crash line in the log) and must still answer a valid message.
import type { Daemon } from './daemon.js';
import type { Edge, Tally } from './tally.js';
import { within } from './wait.js';

export interface Case {
  label: string;
  /** delivers the input; the reason it failed, or null */
  send(): Promise<string | null>;
  /** checked once the batch is processed: the reason it failed, or null */
  verify?(): string | null;
}

export interface BatchOptions {
  edge: Edge;
  tally: Tally;
  daemon: Daemon;
  /** a valid message that must be answered after each batch */
  canary: (tag: string) => Promise<void>;
  batchSize?: number;
  /** per-input deadline for send() */
  inputTimeoutMs?: number;
  /** sends the batch's inputs concurrently (HTTP edges) instead of one after another */
  concurrent?: number;
  /** extra check after each batch (e.g. acks, offsets): the reason it failed, or null */
  afterBatch?: () => Promise<string | null>;
}

const IDLE_TIMEOUT_MS = 30_000;
let canaries = 0;

/**
 * A reply the platform refused for good (the chat does not exist, the bot may not post there): the
 * clear outcome of an input that named a chat that is not one. Anything else unsent is a loss.
 */
const PERMANENT_REFUSAL = /^(not_found|forbidden):/;

async function settle(daemon: Daemon, afterOutboxId: number): Promise<string | null> {
  const deadline = Date.now() + IDLE_TIMEOUT_MS;
  const idle = await within(daemon.idle(), IDLE_TIMEOUT_MS);
  if (idle === 'timeout') return `the gateway was not idle within ${IDLE_TIMEOUT_MS} ms (a hang)`;
  // a platform's own socket (Discord's gateway) may hand the last inputs over just as the gateway
  // went idle: rows accepted then are being processed; one still unfinished at the deadline is lost
  let pending = daemon.pendingInbox();
  while (pending > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    if ((await within(daemon.idle(), Math.max(1, deadline - Date.now()))) === 'timeout') break;
    pending = daemon.pendingInbox();
  }
  if (pending > 0) return `${pending} inbox row(s) left unfinished (a lost message)`;
  const lost = daemon
    .unsentOutbox(afterOutboxId)
    .filter((row) => row.status !== 'failed' || !PERMANENT_REFUSAL.test(row.error ?? ''));
  if (lost.length > 0) return `replies not sent: ${JSON.stringify(lost.slice(0, 3))}`;
  return null;
}

async function runOne(item: Case, timeoutMs: number): Promise<string | null> {
  try {
    const t0 = Date.now();
    const result = await within(item.send(), timeoutMs);
    if (process.env.BAD_INPUT_TIMING && Date.now() - t0 > 300) console.log(`SLOW ${Date.now() - t0} ms: ${item.label}`);
    return result === 'timeout' ? `no outcome within ${timeoutMs} ms (a hang)` : result;
  } catch (error) {
    return `send threw: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Runs every case; records each in the tally; resolves when all batches ran. */
export async function runBatches(cases: readonly Case[], options: BatchOptions): Promise<void> {
  const { edge, tally, daemon } = options;
  const size = options.batchSize ?? 80;
  const timeoutMs = options.inputTimeoutMs ?? 15_000;
  const crashesBefore = daemon.crashLines().length;
  for (let start = 0, batch = 0; start < cases.length; start += size, batch++) {
    const slice = cases.slice(start, start + size);
    const outboxBefore = daemon.lastOutboxId();
    const startedAt = Date.now();
    const results: (string | null)[] = new Array(slice.length).fill(null);
    const workers = Math.max(1, options.concurrent ?? 1);
    let next = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < slice.length) {
          const index = next++;
          const item = slice[index];
          if (item !== undefined) results[index] = await runOne(item, timeoutMs);
        }
      }),
    );
    let batchProblem = await settle(daemon, outboxBefore);
    if (batchProblem === null && options.afterBatch) batchProblem = await options.afterBatch();
    const crashes = daemon.crashLines().slice(crashesBefore);
    if (batchProblem === null && crashes.length > 0) batchProblem = `crash in the log: ${crashes[0]?.slice(0, 400)}`;
    if (batchProblem === null) {
      try {
        // unique per run of the whole file (and never a prefix of another): an old reply cannot pass for it
        canaries += 1;
        await options.canary(`${edge}-canary${canaries}x`);
        batchProblem = await settle(daemon, outboxBefore);
      } catch (error) {
        batchProblem = `the canary after the batch was not answered: ${error instanceof Error ? error.message : error}`;
      }
    }
    if (process.env.BAD_INPUT_TIMING)
      console.log(`${edge} batch ${batch}: ${slice.length} inputs in ${Date.now() - startedAt} ms`);
    slice.forEach((item, i) => {
      const own = results[i] ?? (item.verify ? safeVerify(item) : null);
      const inBatch = batchProblem === null ? null : `batch ${batch}: ${batchProblem}`;
      tally.record(edge, item.label, own === null ? inBatch : inBatch === null ? own : `${own} (${inBatch})`);
    });
  }
}

function safeVerify(item: Case): string | null {
  try {
    return item.verify?.() ?? null;
  } catch (error) {
    return `verify threw: ${error instanceof Error ? error.message : String(error)}`;
  }
}
