/**
 * Stage 7, session: the active session of a key (cached while warm), replaced by a fresh one per
 * the reset policy or on `/new`; fires `on_session_finalize` (with its reason), `on_session_reset`
 * and the `session:*` gateway events, in the seed's order: finalize, reset, then `on_session_start`
 * on the new session's first turn. The idle sweep (session-sweep.ts) finalizes through `finalizeIdle`.
 */
import type { HookBus } from '@hermes/plugins';
import type { GatewayEvents } from '../gateway-events.js';
import type { SessionsPort } from '../ports.js';
import { POLICY_END_REASONS, type PolicyReason, type ResetPolicy, resetReason } from '../reset-policy.js';
import { type CachedSession, SessionCache } from '../session-cache.js';
import type { Async } from '../store/gateway-store.js';

/** a cached session idle longer than this is looked up again before use (retention may have deleted it) */
export const CACHED_SESSION_TRUST_MS = 60 * 60 * 1000;

export interface SessionPorts {
  sessions: Async<SessionsPort>;
  hooks: Pick<HookBus, 'invoke'>;
  events: Pick<GatewayEvents, 'emit'>;
  model: string;
  resetPolicy: ResetPolicy;
  now: () => number;
}

export interface ActiveSession {
  id: string;
  isNew: boolean;
  cached: CachedSession;
}

/** The session the idle sweep found: its key, id and platform. */
export interface IdleSession {
  sessionKey: string;
  id: string;
  platform: string;
}

export class SessionStage {
  readonly cache = new SessionCache();
  readonly #ports: SessionPorts;
  /** keys the idle sweep is finalizing: open and reset wait for it */
  readonly #finalizing = new Map<string, Promise<unknown>>();

  constructor(ports: SessionPorts) {
    this.#ports = ports;
  }

  /** The active session for a key, replaced by a fresh one per the reset policy. */
  async open(sessionKey: string, platform: string, userId: string): Promise<ActiveSession> {
    const sweeping = this.#finalizing.get(sessionKey);
    if (sweeping) await sweeping;
    const { sessions, hooks, events, now } = this.#ports;
    let active = this.cache.get(sessionKey);
    // a session idle this long may have been pruned (state.retention_days, `hermes state prune`): read it again
    if (active && now() - active.updatedAt > CACHED_SESSION_TRUST_MS) {
      this.cache.forget(sessionKey);
      active = undefined;
    }
    if (!active) {
      const row = await sessions.activeByKey(sessionKey);
      if (row) active = this.cache.replaced(sessionKey, { id: row.id, updatedAt: row.updatedAt, history: null });
    }
    const reason = active ? resetReason(active.updatedAt, this.#ports.resetPolicy, now()) : null;
    if (active && reason === null) return { id: active.id, isNew: false, cached: active };
    if (active && reason) {
      await hooks.invoke('on_session_finalize', { sessionId: active.id, platform, reason });
      await sessions.end(active.id, reason);
      events.emit('session:end', { platform, user_id: userId, session_id: active.id, session_key: sessionKey, reason });
    }
    // no active session: a reset too when the policy ended the last one (the idle sweep, finalized then)
    const replacing = active !== undefined || (await this.#endedByPolicy(sessionKey));
    const created = await sessions.create({ key: sessionKey, platform, model: this.#ports.model });
    const cached = this.cache.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    if (replacing) await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    return { id: created.id, isNew: true, cached };
  }

  /** `/new`: ends the active session (if any) and starts a fresh one. */
  async reset(sessionKey: string, platform: string, userId: string): Promise<string> {
    const sweeping = this.#finalizing.get(sessionKey);
    if (sweeping) await sweeping;
    const { sessions, hooks, events } = this.#ports;
    const active = await sessions.activeByKey(sessionKey);
    await hooks.invoke('on_session_finalize', { sessionId: active?.id ?? null, platform, reason: 'new' });
    if (active) {
      await sessions.end(active.id, 'reset');
      const ended = { platform, user_id: userId, session_id: active.id, session_key: sessionKey };
      events.emit('session:end', { ...ended, reason: 'new' });
    }
    const created = await sessions.create({ key: sessionKey, platform, model: this.#ports.model });
    this.cache.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    events.emit('session:reset', { platform, user_id: userId, session_key: sessionKey });
    return 'Started a new session.';
  }

  /**
   * The idle sweep's finalize: when `session` is still the key's active session and still due by
   * the policy, `on_session_finalize` with the reason, the session ended, `session:end`; true when
   * it ended it. The caller makes sure no turn of the key runs; a turn starting meanwhile waits.
   */
  finalizeIdle(session: IdleSession): Promise<boolean> {
    const { sessionKey } = session;
    const pending = this.#finalizing.get(sessionKey);
    if (pending) return pending.then(() => false);
    const run = this.#finalizeIdle(session).finally(() => this.#finalizing.delete(sessionKey));
    this.#finalizing.set(sessionKey, run);
    return run;
  }

  async #finalizeIdle({ sessionKey, id, platform }: IdleSession): Promise<boolean> {
    const { sessions, hooks, events, now } = this.#ports;
    const cached = this.cache.get(sessionKey);
    const row = cached?.id === id ? cached : await sessions.activeByKey(sessionKey);
    if (row?.id !== id) return false; // replaced or ended since the sweep's query
    const reason: PolicyReason | null = resetReason(row.updatedAt, this.#ports.resetPolicy, now());
    if (reason === null) return false; // written to since
    await hooks.invoke('on_session_finalize', { sessionId: id, platform, reason });
    const ended = await sessions.end(id, reason);
    this.cache.forget(sessionKey);
    if (ended) events.emit('session:end', { platform, user_id: '', session_id: id, session_key: sessionKey, reason });
    return ended;
  }

  async #endedByPolicy(sessionKey: string): Promise<boolean> {
    const last = await this.#ports.sessions.latestByKey(sessionKey);
    return last?.endReason != null && POLICY_END_REASONS.includes(last.endReason);
  }
}
