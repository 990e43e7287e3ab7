// Work waiting for a session, picked up by whichever instance can take the session's lease.
//
// `enqueue` stores an item in hermes_session_work and, in the same statement, NOTIFYs
// `hermes_session_work` with the session key (delivered when the insert commits). Every instance
// LISTENs on a dedicated connection; a wake-up makes it try the session's lease and, if it gets it,
// handle that session's items oldest first, deleting each after its handler returns. An instance
// that is running the session already holds the lease: the others' attempts fail and it finds the
// new item when it checks again after releasing. No polling: between wake-ups nothing runs, except
// a rescan after the listening connection comes back (a notification may have been missed).
//
// Delivery is at least once: an instance that dies inside a handler leaves the item for the next
// holder. Exactly-once answers come from the gateway's inbox dedupe keys, not from this queue.
import { type Logger, silentLogger } from '@hermes/protocol';
import pg from 'pg';
import { clientConfig, connectDedicated, destroyClient, type PgTarget } from './pg-types.js';
import { ensureClusterSchema } from './schema.js';
import type { SessionLeases } from './session-leases.js';

export const WORK_CHANNEL = 'hermes_session_work';
/** NOTIFY payloads must stay under 8000 bytes */
const MAX_KEY_BYTES = 4000;

export interface WorkItem {
  id: string;
  sessionKey: string;
  payload: unknown;
  attempts: number;
}

export interface SessionWorkOptions {
  target: PgTarget;
  leases: SessionLeases;
  /** handles one item while this instance holds the session's lease; throw to keep it for a retry */
  handler(item: WorkItem, signal: AbortSignal): Promise<void>;
  /** an item whose handler failed this many times stays in the table and is no longer tried; default 3 */
  maxAttempts?: number;
  /** wait before retrying a session whose handler failed; default 5000 ms */
  retryDelayMs?: number;
  log?: Logger;
}

/** Stores an item for `sessionKey` and wakes every listening instance (one round trip). */
export async function enqueueSessionWork(
  db: pg.Pool | pg.Client,
  sessionKey: string,
  payload: unknown,
): Promise<string> {
  // refused here, with the reason, rather than by PostgreSQL halfway
  if (sessionKey === '' || Buffer.byteLength(sessionKey) > MAX_KEY_BYTES) {
    throw new RangeError(
      `session work: the session key must be 1 to ${MAX_KEY_BYTES} bytes (it is the NOTIFY payload)`,
    );
  }
  const json = JSON.stringify(payload);
  if (json === undefined) throw new TypeError(`session work for ${sessionKey}: the payload is not JSON`);
  const res = await db.query<{ id: string }>(
    `WITH ins AS (INSERT INTO hermes_session_work (session_key, payload) VALUES ($1, $2) RETURNING id)
     SELECT (SELECT id FROM ins)::text AS id, pg_notify('${WORK_CHANNEL}', $1)`,
    [sessionKey, json],
  );
  return res.rows[0]?.id ?? '';
}

export class SessionWorkQueue {
  private readonly pool: pg.Pool;
  private listener: pg.Client | undefined;
  private readonly draining = new Map<string, { again: boolean }>();
  private readonly idle = new Set<Promise<void>>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly log: Logger;
  private readonly maxAttempts: number;

  constructor(private readonly opts: SessionWorkOptions) {
    this.pool = new pg.Pool({ ...clientConfig(opts.target, 'hermes session work'), max: 4 });
    this.pool.on('error', (err) => this.log.warn({ err: err.message }, 'idle session-work connection lost'));
    this.log = (opts.log ?? silentLogger).child({ component: 'session-work' });
    this.maxAttempts = opts.maxAttempts ?? 3;
  }

  /** Listens for wake-ups and handles the work already waiting. */
  async start(): Promise<void> {
    await this.listen();
  }

  enqueue(sessionKey: string, payload: unknown): Promise<string> {
    return enqueueSessionWork(this.pool, sessionKey, payload);
  }

  /** Stops listening and waits for the drains in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    if (this.listener) destroyClient(this.listener);
    this.listener = undefined;
    await Promise.allSettled([...this.idle]);
    await this.pool.end();
  }

  private async listen(): Promise<void> {
    try {
      const client = await connectDedicated(this.opts.target, 'hermes session work listener');
      await ensureClusterSchema(client);
      client.on('notification', (msg) => {
        if (msg.channel === WORK_CHANNEL && msg.payload) this.wake(msg.payload);
      });
      const lost = () => {
        if (this.listener !== client) return;
        this.listener = undefined;
        destroyClient(client);
        this.scheduleReconnect();
      };
      client.on('error', lost);
      client.on('end', lost);
      await client.query(`LISTEN ${WORK_CHANNEL}`);
      if (this.stopped) return destroyClient(client);
      this.listener = client;
      // anything enqueued while no one listened
      const waiting = await this.pool.query<{ session_key: string }>(
        'SELECT DISTINCT session_key FROM hermes_session_work WHERE attempts < $1',
        [this.maxAttempts],
      );
      for (const row of waiting.rows) this.wake(row.session_key);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'cannot listen for session work; retrying');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.listen(), 1000);
  }

  /**
   * Drains `sessionKey` unless this instance is draining it already (then once more after). Call it
   * after running a session outside this queue (runExclusive), as a drain elsewhere may have found
   * the session busy while you held it.
   */
  wake(sessionKey: string): void {
    const running = this.draining.get(sessionKey);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.draining.set(sessionKey, state);
    const p = this.drain(sessionKey, state)
      .catch((err: Error) => this.log.warn({ session: sessionKey, err: err.message }, 'session work drain failed'))
      .finally(() => {
        this.draining.delete(sessionKey);
        this.idle.delete(p);
      });
    this.idle.add(p);
  }

  private async drain(sessionKey: string, state: { again: boolean }): Promise<void> {
    for (;;) {
      state.again = false;
      let failed = false;
      const res = await this.opts.leases.tryRunExclusive(sessionKey, async (signal) => {
        for (;;) {
          if (this.stopped || signal.aborted) return;
          // ordered by the bigint column (an alias `id` for id::text would sort as text: '10' < '9')
          const next = await this.pool.query<{ item_id: string; payload: unknown; attempts: number }>(
            `SELECT id::text AS item_id, payload, attempts FROM hermes_session_work
             WHERE session_key = $1 AND attempts < $2 ORDER BY hermes_session_work.id LIMIT 1`,
            [sessionKey, this.maxAttempts],
          );
          const row = next.rows[0];
          if (!row) return;
          try {
            await this.opts.handler(
              { id: row.item_id, sessionKey, payload: row.payload, attempts: row.attempts },
              signal,
            );
          } catch (err) {
            failed = true;
            await this.pool.query(
              'UPDATE hermes_session_work SET attempts = attempts + 1, last_error = $2 WHERE id = $1',
              [row.item_id, err instanceof Error ? err.message : String(err)],
            );
            this.log.warn({ session: sessionKey, item: row.item_id, err: String(err) }, 'session work item failed');
            return;
          }
          await this.pool.query('DELETE FROM hermes_session_work WHERE id = $1', [row.item_id]);
        }
      });
      if (failed) {
        setTimeout(() => !this.stopped && this.wake(sessionKey), this.opts.retryDelayMs ?? 5000).unref();
        return;
      }
      // held elsewhere: that holder checks again after releasing, so the item is not stranded
      if (!res.ran) this.log.debug({ session: sessionKey }, 'session busy elsewhere; its holder takes the work');
      if (!res.ran && !state.again) return;
      if (!state.again && !(await this.hasWork(sessionKey))) return;
      if (this.stopped) return;
    }
  }

  private async hasWork(sessionKey: string): Promise<boolean> {
    const res = await this.pool.query(
      'SELECT 1 FROM hermes_session_work WHERE session_key = $1 AND attempts < $2 LIMIT 1',
      [sessionKey, this.maxAttempts],
    );
    return (res.rowCount ?? 0) > 0;
  }
}
