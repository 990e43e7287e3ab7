// Session leases: one run per session across every instance sharing one PostgreSQL database.
//
// `runExclusive(sessionKey, fn)` takes a session-level advisory lock on a pooled connection that
// it keeps for the whole run, waiting (inside PostgreSQL, no polling) while another instance runs
// that session; `tryRunExclusive` returns at once when the session is busy elsewhere. The lock dies
// with its connection, so a crashed instance never leaves a session locked. If the connection is
// lost or stops answering during the run, the run's AbortSignal fires: another instance may now
// take the session, so the run must stop.
import { type Logger, silentLogger } from '@hermes/protocol';
import pg from 'pg';
import { clientConfig, LOCK_KEY_SQL, type PgTarget, SESSION_LOCK_PREFIX, withTimeout } from './pg-types.js';

export interface SessionLeaseOptions {
  target: PgTarget;
  /** connections in the pool: at most this many sessions locked (or waited for) at once; default 10 */
  maxConnections?: number;
  /** how often a held lease proves its connection; default 2000 ms */
  checkIntervalMs?: number;
  log?: Logger;
}

export type TryResult<T> = { ran: true; value: T } | { ran: false };

export class SessionLeases {
  private readonly pool: pg.Pool;
  private readonly checkIntervalMs: number;
  private readonly log: Logger;

  constructor(opts: SessionLeaseOptions) {
    // a full pool makes a run wait for a connection, but not for ever: an error after 10 s
    this.pool = new pg.Pool({
      ...clientConfig(opts.target, 'hermes session leases'),
      max: opts.maxConnections ?? 10,
      connectionTimeoutMillis: 10_000,
    });
    this.checkIntervalMs = opts.checkIntervalMs ?? 2000;
    this.log = (opts.log ?? silentLogger).child({ component: 'session-leases' });
    // an idle pooled connection that dies emits here; without a listener the process would crash
    this.pool.on('error', (err) => this.log.warn({ err: err.message }, 'idle session-lease connection lost'));
  }

  /** Runs `fn` while holding the session's lease, waiting for it first if another instance holds it. */
  async runExclusive<T>(sessionKey: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const result = await this.withLease(sessionKey, true, fn);
    if (!result.ran) throw new Error(`session lease for ${sessionKey} was not granted`);
    return result.value;
  }

  /** Runs `fn` only if the session's lease is free right now; `{ ran: false }` when it is held elsewhere. */
  tryRunExclusive<T>(sessionKey: string, fn: (signal: AbortSignal) => Promise<T>): Promise<TryResult<T>> {
    return this.withLease(sessionKey, false, fn);
  }

  /** Closes the pool (runs still holding a lease keep their connection until they end). */
  async close(): Promise<void> {
    await this.pool.end();
  }

  private async withLease<T>(
    sessionKey: string,
    wait: boolean,
    fn: (signal: AbortSignal) => Promise<T>,
  ): Promise<TryResult<T>> {
    const client = await this.pool.connect();
    const abort = new AbortController();
    let broken: Error | undefined;
    const lose = (reason: string) => {
      if (broken) return;
      broken = new Error(`session lease for ${sessionKey} lost: ${reason}`);
      abort.abort(broken);
    };
    const onError = (err: Error) => lose(err.message);
    client.on('error', onError);
    let timer: NodeJS.Timeout | undefined;
    try {
      const key = SESSION_LOCK_PREFIX + sessionKey;
      if (wait) {
        await client.query(`SELECT pg_advisory_lock(${LOCK_KEY_SQL('$1')})`, [key]);
      } else {
        const res = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY_SQL('$1')}) AS ok`, [
          key,
        ]);
        if (res.rows[0]?.ok !== true) return { ran: false };
      }
      timer = setInterval(() => {
        withTimeout(client.query('SELECT 1'), this.checkIntervalMs, 'session lease check').catch((err: Error) =>
          lose(err.message),
        );
      }, this.checkIntervalMs);
      const value = await fn(abort.signal);
      clearInterval(timer);
      if (!broken) {
        await withTimeout(
          client.query(`SELECT pg_advisory_unlock(${LOCK_KEY_SQL('$1')})`, [key]),
          this.checkIntervalMs,
          'session lease release',
        ).catch((err: Error) => lose(err.message));
      }
      return { ran: true, value };
    } catch (err) {
      // a failed lock query or a throwing run: the connection is dropped, which frees the lock for sure
      broken ??= err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      clearInterval(timer);
      client.off('error', onError);
      // a dropped connection may still emit its last error after release: never unhandled
      if (broken) client.on('error', () => undefined);
      client.release(broken ?? undefined);
    }
  }
}
