/**
 * The idle sweep: without it a session past the reset policy is finalized only when its chat
 * writes again. Every `sweepIntervalMs(policy)` it asks the store for active sessions last active
 * before the policy's cutoff and finalizes each through the session stage (`on_session_finalize`
 * with the reason, the session ended, `session:end`), skipping a key whose lane has a turn and,
 * in a cluster, a key another instance runs (the session's lease) or may run (a connection-holding
 * platform held elsewhere). One timer, unref'd, stopped with the gateway.
 */
import { type Logger, SESSION_KEYS } from '@hermes/protocol';
import type { AsyncStore, SessionRow } from '@hermes/store';
import type { SessionStage } from '../pipeline/session.js';
import { idleWindowMs, type ResetPolicy, resetCutoff } from './reset-policy.js';
import { type BoundGuard, tryGuardSession } from './session-guard.js';

/** The longest pause between two sweeps. */
export const SWEEP_MAX_INTERVAL_MS = 60_000;
/** The shortest pause between two sweeps. */
export const SWEEP_MIN_INTERVAL_MS = 1_000;
/** Sessions looked at per sweep; a full batch that ended some is followed by another sweep soon. */
export const SWEEP_BATCH = 100;

export interface SessionSweepPorts {
  sessions: Pick<AsyncStore['sessions'], 'idleActive'>;
  /** the session stage: `finalizeIdle` is true when it ended the session */
  stage: Pick<SessionStage, 'finalizeIdle'>;
  /** a lane with a turn running (and perhaps more queued) is not swept */
  lanes: { busy(sessionKey: string): boolean };
  /** the cluster's session guard (null: one instance) */
  guard: BoundGuard | null;
  policy: ResetPolicy;
  /** the platforms whose sessions this gateway opens (its adapters and `api`) */
  platforms(): readonly string[];
  logger: Logger;
  now: () => number;
}

/** A tenth of the idle window, between 1 s and 60 s; a daily-only policy: every minute. */
export function sweepIntervalMs(policy: ResetPolicy): number {
  if (policy.mode === 'daily') return SWEEP_MAX_INTERVAL_MS;
  const tenth = idleWindowMs(policy) / 10;
  return Math.min(SWEEP_MAX_INTERVAL_MS, Math.max(SWEEP_MIN_INTERVAL_MS, tenth));
}

/** The Responses API's sessions: their chains pick the session, with no reset policy (SURFACE_PLANS). */
const RESPONSES_PREFIX = SESSION_KEYS.apiResponse('');

/**
 * Whether the reset policy applies to a stored session: the session stage's chat and keyed API
 * sessions (`<platform>:…`, session-keys.ts), not `delegate_task` children (`delegate:…`, ended
 * with their run) nor the Responses API's chains (`api:response:…`).
 */
export function underResetPolicy(row: Pick<SessionRow, 'sessionKey' | 'platform'>): boolean {
  return row.sessionKey.startsWith(`${row.platform}:`) && !row.sessionKey.startsWith(RESPONSES_PREFIX);
}

export class SessionSweep {
  readonly #p: SessionSweepPorts;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | null = null;
  #started = false;
  #stopping = false;

  constructor(ports: SessionSweepPorts) {
    this.#p = ports;
  }

  /** Starts sweeping (nothing with `session_reset.mode: none`). */
  start(): void {
    if (this.#p.policy.mode === 'none' || this.#started) return;
    this.#started = true;
    this.#schedule(sweepIntervalMs(this.#p.policy));
  }

  /** Stops the timer; resolves once a sweep under way has finished the session it was on. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One sweep now: how many sessions it ended, and whether more may be waiting (a full batch). */
  async sweepOnce(): Promise<{ ended: number; more: boolean }> {
    const { policy, now, sessions, logger } = this.#p;
    const before = resetCutoff(policy, now());
    if (before === null) return { ended: 0, more: false };
    const rows = await sessions.idleActive({ before, platforms: this.#p.platforms(), limit: SWEEP_BATCH });
    let ended = 0;
    for (const row of rows) {
      if (this.#stopping) break;
      const { lanes, stage } = this.#p;
      if (!underResetPolicy(row) || lanes.busy(row.sessionKey)) continue;
      const session = { sessionKey: row.sessionKey, id: row.id, platform: row.platform };
      let done = false;
      await tryGuardSession(this.#p.guard, row.sessionKey, async () => {
        // a turn may have started while the lease was taken: it goes first
        if (!lanes.busy(row.sessionKey)) done = await stage.finalizeIdle(session);
      });
      if (done) ended++;
    }
    if (ended > 0) logger.info({ ended, looked: rows.length }, `idle sweep: ${ended} idle session(s) finalized`);
    return { ended, more: rows.length === SWEEP_BATCH && ended > 0 };
  }

  #schedule(delayMs: number): void {
    if (this.#stopping) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#tick().finally(() => {
        this.#running = null;
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    let next = sweepIntervalMs(this.#p.policy);
    try {
      if ((await this.sweepOnce()).more) next = SWEEP_MIN_INTERVAL_MS;
    } catch (err) {
      this.#p.logger.warn({ err }, `idle sweep failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.#schedule(next);
  }
}
