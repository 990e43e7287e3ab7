/**
 * Stage 7, session: the active session of a key (cached while warm), replaced by a fresh one per
 * the reset policy or on `/new`; fires `on_session_finalize`/`on_session_reset` and the
 * `session:*` gateway events.
 */
import type { HookBus } from '@hermes/plugins';
import type { AsyncStore } from '@hermes/store';
import type { GatewayEvents } from '../gateway-events.js';
import { needsReset, type ResetPolicy } from '../reset-policy.js';
import { type CachedSession, SessionCache } from '../session-cache.js';

/** a cached session idle longer than this is looked up again before use (retention may have deleted it) */
export const CACHED_SESSION_TRUST_MS = 60 * 60 * 1000;

export interface SessionPorts {
  sessions: Pick<AsyncStore['sessions'], 'create' | 'activeByKey' | 'end'>;
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

export class SessionStage {
  readonly cache = new SessionCache();
  readonly #ports: SessionPorts;

  constructor(ports: SessionPorts) {
    this.#ports = ports;
  }

  /** The active session for a key, replaced by a fresh one per the reset policy. */
  async open(sessionKey: string, platform: string, userId: string): Promise<ActiveSession> {
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
    if (active && !needsReset(active.updatedAt, this.#ports.resetPolicy, now()))
      return { id: active.id, isNew: false, cached: active };
    if (active) {
      await hooks.invoke('on_session_finalize', { sessionId: active.id, platform });
      await sessions.end(active.id, 'reset_policy');
      events.emit('session:end', { platform, user_id: userId, session_key: sessionKey });
    }
    const created = await sessions.create({ key: sessionKey, platform, model: this.#ports.model });
    const cached = this.cache.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    if (active) await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    return { id: created.id, isNew: true, cached };
  }

  /** `/new`: ends the active session (if any) and starts a fresh one. */
  async reset(sessionKey: string, platform: string, userId: string): Promise<string> {
    const { sessions, hooks, events } = this.#ports;
    const active = await sessions.activeByKey(sessionKey);
    await hooks.invoke('on_session_finalize', { sessionId: active?.id ?? null, platform });
    if (active) {
      await sessions.end(active.id, 'reset');
      events.emit('session:end', { platform, user_id: userId, session_key: sessionKey });
    }
    const created = await sessions.create({ key: sessionKey, platform, model: this.#ports.model });
    this.cache.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    events.emit('session:reset', { platform, user_id: userId, session_key: sessionKey });
    return 'Started a new session.';
  }
}
