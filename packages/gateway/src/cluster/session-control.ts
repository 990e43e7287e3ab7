// `/stop` and the interrupt busy mode across instances: a session runs on the instance holding its
// lease, while the message asking to stop or interrupt it may reach another. That one sends
// `NOTIFY hermes_session_control` with the session key and the action; every instance LISTENs on a
// dedicated connection and the one running the session stops its turn, as a local `/stop` or an
// interrupting message would. Whether the session runs anywhere is read from pg_locks (its lease).
import { type Logger, silentLogger } from '@hermes/protocol';
import type pg from 'pg';
import { ChannelListener } from './channel-listener.js';
import { LOCK_KEY_SQL, type PgTarget, SESSION_LOCK_PREFIX } from './pg-types.js';

export const CONTROL_CHANNEL = 'hermes_session_control';

export type SessionAction = 'stop' | 'interrupt';

export interface SessionControlOptions {
  pool: pg.Pool;
  target: PgTarget;
  instanceId: string;
  log?: Logger;
}

export class SessionControl {
  readonly #listener: ChannelListener;
  #handler: ((sessionKey: string, action: SessionAction) => boolean) | null = null;
  readonly #log: Logger;

  constructor(private readonly opts: SessionControlOptions) {
    this.#log = (opts.log ?? silentLogger).child({ component: 'session-control' });
    this.#listener = new ChannelListener(opts.target, CONTROL_CHANNEL, (payload) => this.#receive(payload), this.#log);
  }

  /** What this instance does when asked: stop (or interrupt) the session's run if it runs here. */
  handle(handler: (sessionKey: string, action: SessionAction) => boolean): void {
    this.#handler = handler;
  }

  async start(): Promise<void> {
    await this.#listener.start();
  }

  /** Asks whichever instance runs the session to stop it; false when it runs nowhere. */
  async send(sessionKey: string, action: SessionAction): Promise<boolean> {
    const res = await this.opts.pool.query<{ held: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM pg_locks l, (SELECT ${LOCK_KEY_SQL('$1')} AS k) key
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
           AND l.classid = ((key.k >> 32) & 4294967295)::oid AND l.objid = (key.k & 4294967295)::oid) AS held`,
      [SESSION_LOCK_PREFIX + sessionKey],
    );
    if (res.rows[0]?.held !== true) return false;
    const payload = JSON.stringify({ key: sessionKey, action, from: this.opts.instanceId });
    await this.opts.pool.query('SELECT pg_notify($1, $2)', [CONTROL_CHANNEL, payload]);
    return true;
  }

  async stop(): Promise<void> {
    this.#listener.stop();
  }

  #receive(payload: string): void {
    try {
      const { key, action, from } = JSON.parse(payload) as { key: string; action: SessionAction; from: string };
      if (from === this.opts.instanceId || typeof key !== 'string') return;
      if (action !== 'stop' && action !== 'interrupt') return;
      const done = this.#handler?.(key, action) ?? false;
      if (done) this.#log.info({ session: key, action, from }, `session ${action} asked by instance ${from}`);
    } catch (err) {
      this.#log.warn({ err: (err as Error).message }, 'unreadable session control notification');
    }
  }
}
