/**
 * Stage 7, session: the active session of a key (cached while warm), replaced by a fresh one per
 * the reset policy or on `/new`; fires `on_session_finalize` (with its reason), `on_session_reset`
 * and the `session:*` gateway events, in the seed's order: finalize, reset, then `on_session_start`
 * on the new session's first turn. A session is created for its sender's identity (`user_key`:
 * `session_search` answers each user from their own sessions). The idle sweep (session-sweep.ts) finalizes through `finalizeIdle`.
 */
import type { HookBus } from '@hermes/plugins';
import type { AsyncStore } from '@hermes/store';
import type { GatewayEvents } from '../gateway-hooks/gateway-events.js';
import { POLICY_END_REASONS, type PolicyReason, type ResetPolicy, resetReason } from '../sessions/reset-policy.js';
import { type CachedSession, SessionCache } from '../sessions/session-cache.js';
import { identityOfWho } from '../users/identity.js';

/** a cached session idle longer than this is looked up again before use (retention may have deleted it) */
export const CACHED_SESSION_TRUST_MS = 60 * 60 * 1000;

export interface SessionPorts {
  sessions: Pick<AsyncStore['sessions'], 'create' | 'activeByKey' | 'latestByKey' | 'end' | 'reopen'>;
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
  /** keys whose session is being finalized or replaced (/new, the policy, the idle sweep): the others wait */
  readonly #changing = new Map<string, Promise<unknown>>();

  constructor(ports: SessionPorts) {
    this.#ports = ports;
  }

  /** The active session for a key, replaced by a fresh one per the reset policy. */
  async open(sessionKey: string, platform: string, userId: string): Promise<ActiveSession> {
    for (;;) {
      const changing = this.#changing.get(sessionKey);
      if (changing) {
        await changing.catch(() => undefined);
        continue;
      }
      let active = this.#warm(sessionKey);
      if (!active) {
        const row = await this.#ports.sessions.activeByKey(sessionKey);
        if (this.#changing.has(sessionKey)) continue; // finalized or replaced while this read
        if (row) active = this.cache.replaced(sessionKey, { id: row.id, updatedAt: row.updatedAt, history: null });
      }
      const reason = active ? resetReason(active.updatedAt, this.#ports.resetPolicy, this.#ports.now()) : null;
      if (active && reason === null) return { id: active.id, isNew: false, cached: active };
      const previous = active && reason ? { id: active.id, reason } : null;
      return this.#hold(sessionKey, () => this.#replace(sessionKey, platform, userId, previous));
    }
  }

  /** `/new`: ends the active session (if any) and starts a fresh one. */
  reset(sessionKey: string, platform: string, userId: string): Promise<string> {
    return this.#hold(sessionKey, async () => {
      const { sessions, hooks, events } = this.#ports;
      const active = await sessions.activeByKey(sessionKey);
      await hooks.invoke('on_session_finalize', { sessionId: active?.id ?? null, platform, reason: 'new' });
      if (active) {
        await sessions.end(active.id, 'reset');
        const ended = { platform, user_id: userId, session_id: active.id, session_key: sessionKey };
        events.emit('session:end', { ...ended, reason: 'new' });
      }
      const created = await sessions.create({
        key: sessionKey,
        platform,
        model: this.#ports.model,
        userKey: identityOfWho(platform, userId),
      });
      this.cache.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
      await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
      events.emit('session:reset', { platform, user_id: userId, session_key: sessionKey });
      return 'Started a new session.';
    });
  }

  /**
   * `/resume`: the key's active session (if any) ends (`on_session_finalize` with reason `switch`,
   * `session:end`) and `targetId`, one of the key's ended sessions, is active again; its history is
   * read from the store on the next turn.
   */
  switchTo(sessionKey: string, platform: string, userId: string, targetId: string): Promise<boolean> {
    return this.#hold(sessionKey, async () => {
      const { sessions, hooks, events } = this.#ports;
      const active = await sessions.activeByKey(sessionKey);
      if (active?.id === targetId) return true;
      if (active) {
        await hooks.invoke('on_session_finalize', { sessionId: active.id, platform, reason: 'switch' });
        await sessions.end(active.id, 'switch');
        events.emit('session:end', {
          platform,
          user_id: userId,
          session_id: active.id,
          session_key: sessionKey,
          reason: 'switch',
        });
      }
      const reopened = await sessions.reopen(targetId);
      this.cache.forget(sessionKey);
      return reopened;
    });
  }

  /** The cached history of a key is stale (`/undo`, `/retry` changed the transcript): the next turn reads the store. */
  forgetHistory(sessionKey: string): Promise<void> {
    return this.#hold(sessionKey, async () => this.cache.forget(sessionKey));
  }

  /**
   * The idle sweep's finalize: when `session` is still the key's active session and still due by
   * the policy, `on_session_finalize` with the reason, the session ended, `session:end`; true when
   * it ended it. The caller makes sure no turn of the key runs; one starting meanwhile waits for it.
   */
  finalizeIdle(session: IdleSession): Promise<boolean> {
    if (this.#changing.has(session.sessionKey)) return Promise.resolve(false); // already being replaced
    return this.#hold(session.sessionKey, () => this.#finalizeIdle(session));
  }

  /** The cached session of a key, unless idle so long it may have been pruned (retention, `hermes state prune`). */
  #warm(sessionKey: string): CachedSession | undefined {
    const cached = this.cache.get(sessionKey);
    if (cached && this.#ports.now() - cached.updatedAt > CACHED_SESSION_TRUST_MS) {
      this.cache.forget(sessionKey);
      return undefined;
    }
    return cached;
  }

  /** Runs `change` as the key's one change in flight (after any other one ended). */
  async #hold<T>(sessionKey: string, change: () => Promise<T>): Promise<T> {
    for (let p = this.#changing.get(sessionKey); p; p = this.#changing.get(sessionKey)) await p.catch(() => undefined);
    const run = change();
    this.#changing.set(sessionKey, run);
    try {
      return await run;
    } finally {
      if (this.#changing.get(sessionKey) === run) this.#changing.delete(sessionKey);
    }
  }

  /** A fresh session for the key: the previous one finalized first when the policy ended it. */
  async #replace(
    sessionKey: string,
    platform: string,
    userId: string,
    previous: { id: string; reason: PolicyReason } | null,
  ): Promise<ActiveSession> {
    const { sessions, hooks, events } = this.#ports;
    if (previous) {
      const { id, reason } = previous;
      await hooks.invoke('on_session_finalize', { sessionId: id, platform, reason });
      await sessions.end(id, reason);
      events.emit('session:end', { platform, user_id: userId, session_id: id, session_key: sessionKey, reason });
    }
    // no active session: a reset too when the policy ended the last one (the idle sweep, finalized then)
    const replacing = previous !== null || (await this.#endedByPolicy(sessionKey));
    const created = await sessions.create({
      key: sessionKey,
      platform,
      model: this.#ports.model,
      userKey: identityOfWho(platform, userId),
    });
    const cached = this.cache.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    if (replacing) await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    return { id: created.id, isNew: true, cached };
  }

  async #finalizeIdle({ sessionKey, id, platform }: IdleSession): Promise<boolean> {
    const { sessions, hooks, events, now } = this.#ports;
    const cached = this.cache.get(sessionKey);
    const row = cached?.id === id ? cached : await sessions.activeByKey(sessionKey);
    if (row?.id !== id) return false; // replaced or ended since the sweep's query
    const reason = resetReason(row.updatedAt, this.#ports.resetPolicy, now());
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
