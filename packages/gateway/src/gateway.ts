/**
 * The gateway: platform adapters feed one pipeline (inbox dedupe, pre_gateway_dispatch,
 * authorization and pairing, group policy, commands, session lanes, the agent turn, delivery).
 * Built separately from listening, so tests start and stop whole gateways in-process.
 */
import { mkdirSync } from 'node:fs';
import type { ModelClient, ToolRegistry } from '@hermes/agent';
import { buildSystemPrompt, createApprovalGate, runTurn } from '@hermes/agent';
import type { HookBus } from '@hermes/plugins';
import type {
  DispatchHandles,
  HookAgentResult,
  HookSendResult,
  Logger,
  MessageEvent,
  PlatformAdapter,
  PlatformFactory,
  PlatformState,
  RouteOptions,
  RouteRequest,
  RouteResponse,
} from '@hermes/protocol';
import { allowedByEnv, type Env } from './authorize.js';
import { type CommandContext, type CommandServices, commandList, parseCommand, runCommand } from './commands.js';
import { CommitQueue } from './commit-queue.js';
import { type DeliveryTarget, deliver, type OutboxPort, resendPending } from './delivery/deliver.js';
import { SendRateLimiter } from './delivery/send-rate-limiter.js';
import { createDispatchHandles } from './dispatch-handles.js';
import { failureMessage, failureReply } from './failure-reply.js';
import { GatewayEvents } from './gateway-events.js';
import { isAddressed } from './group-policy.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import type {
  InboxPort,
  OutboxRowLike,
  PairingPort,
  PlatformStatePort,
  SessionsPort,
  TranscriptsPort,
} from './ports.js';
import { needsReset, type ResetPolicy } from './reset-policy.js';
import { type CachedSession, SessionCache } from './session-cache.js';
import { type GroupSessions, sessionKeyFor } from './session-key.js';
import { type BusyMode, type RunControl, SessionLanes } from './session-lanes.js';

export const SILENT_MARKER = '[SILENT]';
export const TYPING_INTERVAL_MS = 4_000;
/** a turn still running after this long shows the typing indicator */
export const TYPING_DELAY_MS = 300;
/** a message whose turn was cut off this many starts in a row is answered with an apology instead */
export const MAX_RESUME_ATTEMPTS = 3;
export const ADAPTER_STOP_TIMEOUT_MS = 5_000;
export const KNOWN_CHATS_MAX = 10_000;
/** a cached session idle longer than this is looked up again before use (retention may have deleted it) */
export const CACHED_SESSION_TRUST_MS = 60 * 60 * 1000;

export interface GatewaySettings {
  model: string;
  systemPrompt?: string | undefined;
  maxIterations: number;
  toolTimeoutMs: number;
  toolsets: readonly string[];
  cwd: string;
  busyMode: BusyMode;
  maxConcurrentRuns: number;
  freeResponseChats: readonly string[];
  groupSessions: GroupSessions;
  resetPolicy: ResetPolicy;
  platformSettings: Readonly<Record<string, Readonly<Record<string, unknown>> & { enabled?: boolean | undefined }>>;
  cacheDir: string;
  /** a gateway hook handler running longer than this is logged as hanging (default 30 s) */
  hookTimeoutMs?: number;
}

export interface GatewayDeps {
  settings: GatewaySettings;
  env: Env;
  logger: Logger;
  hooks: HookBus;
  tools: ToolRegistry;
  client: ModelClient;
  store: {
    sessions: SessionsPort;
    transcripts: TranscriptsPort;
    inbox: InboxPort;
    outbox: OutboxPort;
    pairing: PairingPort;
    platformState: PlatformStatePort;
    /** runs `fn` (synchronous) in one transaction: state that belongs together commits together */
    transaction<T>(fn: () => T): T;
  };
  platforms: readonly PlatformFactory[];
  pluginCommands: () => ReadonlyMap<string, { description: string; handler: (args: string) => unknown }>;
  pluginSummary: () => string;
  setHomeChannel: (platform: string, chatId: string) => void;
  /**
   * Claims a platform's instance key (its token) machine-wide before the adapter is created; a
   * refusal keeps the platform off with the reason in /health. Absent: no claim (tests).
   */
  claimPlatform?: (platform: string, key: string) => { ok: true; release(): void } | { ok: false; reason: string };
  /**
   * The gateway's metrics (`GET /metrics`); absent, the gateway makes its own. Given, the same
   * object's observers can be handed to the HookBus and ModelClient built before the gateway.
   */
  metrics?: GatewayMetrics;
  now?: () => number;
  /** the process's secret redactor: applied to every answer before it is stored or sent (default: none) */
  redact?: (text: string) => string;
}

interface LaneJob {
  inboxId: number;
  event: MessageEvent;
  text: string;
  /** when the message was accepted (metrics clock), for the turn latency */
  acceptedAt: number;
}

export interface RouteDefinition {
  method: 'GET' | 'POST';
  path: string;
  handler: (request: RouteRequest) => Promise<RouteResponse>;
  /** header check run before the body is read (see PlatformContext.route) */
  verify?: RouteOptions['verify'];
}

export class Gateway {
  readonly adapters = new Map<string, PlatformAdapter>();
  readonly events: GatewayEvents;
  readonly routes: RouteDefinition[] = [];
  readonly metrics: GatewayMetrics;
  readonly #deps: GatewayDeps;
  readonly #sessions = new SessionCache();
  /** aborts one-shot agent runs (gateway hooks) when the gateway stops */
  readonly #oneShots = new AbortController();
  /** machine-wide platform token claims, released at stop */
  readonly #claims: { release(): void }[] = [];
  /** group commit of the per-message writes (accept, outbox rows, delivered marks) */
  readonly #commits: CommitQueue;
  readonly #commit: <T>(fn: () => T) => Promise<T>;
  readonly #lanes: SessionLanes<LaneJob>;
  readonly #now: () => number;
  readonly #processing = new Set<Promise<void>>();
  readonly #failed = new Map<string, PlatformState>();
  /** the chat each running session answers, for send_message's `origin` */
  readonly #origins = new Map<string, DeliveryTarget>();
  /** chats authorized users wrote from since start: send_message may address them */
  readonly #knownChats = new Set<string>();
  /** every platform's send limits (capabilities.sendRate), shared by all deliveries */
  readonly #rateLimiter = new SendRateLimiter();
  #handles: DispatchHandles | undefined;
  #accepting = true;
  #started = false;

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
    this.#commits = new CommitQueue(deps.store.transaction);
    this.#commit = (fn) => this.#commits.run(fn);
    this.#now = deps.now ?? Date.now;
    this.metrics = deps.metrics ?? new GatewayMetrics();
    this.events = new GatewayEvents(deps.logger, {
      ...(deps.settings.hookTimeoutMs !== undefined ? { timeoutMs: deps.settings.hookTimeoutMs } : {}),
      observer: this.metrics.observeGatewayHandler,
    });
    this.#lanes = new SessionLanes<LaneJob>({
      maxConcurrent: deps.settings.maxConcurrentRuns,
      runner: (job, control) => this.#runJob(job, control),
      withText: (job, text) => ({ ...job, text }),
      // messages queued behind a turn that /stop or /new cancelled: finished, or they would stay pending
      onDrop: (jobs) => {
        for (const job of jobs) deps.store.inbox.mark(job.inboxId, 'skipped');
      },
    });
    mkdirSync(deps.settings.cacheDir, { recursive: true, mode: 0o700 }); // attachments users sent: owner-only
    for (const factory of deps.platforms) {
      const settings = deps.settings.platformSettings[factory.name] ?? {};
      if (settings.enabled === false || !factory.hasCredentials(deps.env)) continue;
      const key = factory.instanceKey?.(deps.env);
      if (key && deps.claimPlatform) {
        const claim = deps.claimPlatform(factory.name, key);
        if (!claim.ok) {
          deps.logger.error({ platform: factory.name }, `platform ${factory.name} not started: ${claim.reason}`);
          this.#failed.set(factory.name, { state: 'error', since: this.#now(), error: claim.reason });
          continue;
        }
        this.#claims.push(claim);
      }
      let adapter: PlatformAdapter;
      try {
        adapter = factory.create({
          settings,
          env: deps.env,
          logger: deps.logger.child({ platform: factory.name }),
          cacheDir: deps.settings.cacheDir,
          state: {
            get: (key) => deps.store.platformState.get(factory.name, key),
            set: (key, value) => deps.store.platformState.set(factory.name, key, value),
          },
          commands: () => commandList(deps.pluginCommands()),
          route: (method, path, handler, options) => {
            if (this.#started) throw new Error(`platform ${factory.name} added route ${path} after start`);
            this.routes.push({ method, path, handler, ...(options?.verify ? { verify: options.verify } : {}) });
          },
        });
      } catch (err) {
        // a broken platform setting never takes the gateway down: the platform is reported failed
        if (key && deps.claimPlatform) this.#claims.pop()?.release();
        const message = err instanceof Error ? err.message : String(err);
        deps.logger.error({ err, platform: factory.name }, `platform ${factory.name} not started: ${message}`);
        this.#failed.set(factory.name, { state: 'error', since: this.#now(), error: message });
        continue;
      }
      this.adapters.set(factory.name, adapter);
    }
    // every platform's series exist from the start (at zero), so rates and alerts see them
    for (const name of this.adapters.keys()) this.metrics.platform(name);
    this.metrics.attach({
      platformStates: () => this.platformStates(),
      lanes: () => this.#lanes.stats(),
      outboxPending: () => deps.store.outbox.pendingCounts(),
    });
  }

  /** Per-platform connection states. */
  platformStates(): Record<string, PlatformState> {
    const out: Record<string, PlatformState> = Object.fromEntries(this.#failed);
    for (const [name, adapter] of this.adapters) out[name] = adapter.status();
    return out;
  }

  /** Connects every platform, resumes accepted-but-unanswered messages, fires gateway:startup. */
  async start(): Promise<void> {
    this.#started = true;
    // what earlier runs left unfinished, read before any adapter can accept: a message this run
    // accepts while the other platforms are still connecting is processed once, never also "resumed"
    const unfinished = this.#deps.store.inbox.pending();
    const sink = {
      accept: (event: MessageEvent, options?: { state?: Record<string, string> }) => this.accept(event, options),
    };
    await Promise.all(
      [...this.adapters.values()].map(async (adapter) => {
        try {
          await adapter.start(sink);
        } catch (err) {
          this.#deps.logger.error({ err, platform: adapter.name }, `platform ${adapter.name} failed to start`);
        }
      }),
    );
    this.metrics.startSampling();
    this.#recover(unfinished);
    this.events.emit('gateway:startup', { platforms: [...this.adapters.keys()] });
  }

  /**
   * Graceful stop: new messages are still accepted into the inbox but not started (the next start
   * answers them); running turns finish and deliver, up to `drainMs`; what is still running then is
   * cut off and stays pending for the next start; then the platforms disconnect.
   */
  async stop(drainMs = 0): Promise<void> {
    this.#accepting = false;
    const drained = Promise.all([...this.#processing]).then(() => this.#lanes.idle());
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, drainMs).unref());
    await Promise.race([drained, timeout]);
    this.#lanes.abortAll();
    this.#oneShots.abort(new Error('gateway stopping'));
    await Promise.race([this.#lanes.idle(), new Promise<void>((r) => setTimeout(r, 2_000).unref())]);
    const stops = Promise.all([...this.adapters.values()].map((a) => a.stop().catch(() => undefined)));
    await Promise.race([stops, new Promise<void>((r) => setTimeout(r, ADAPTER_STOP_TIMEOUT_MS).unref())]);
    this.metrics.stopSampling();
    for (const claim of this.#claims.splice(0)) claim.release();
  }

  /**
   * One agent turn outside any chat (a gateway hook's `runAgent`): the gateway's model, tools
   * (send_message included) and plugin hooks; nothing is stored; cut off when the gateway stops.
   */
  async runOneShot(prompt: string, options: { name: string; maxIterations?: number }): Promise<HookAgentResult> {
    const { settings, client, tools, hooks, logger, env } = this.#deps;
    if (this.#oneShots.signal.aborted) return { status: 'interrupted', text: null, error: 'the gateway is stopping' };
    try {
      const result = await runTurn({
        client,
        model: settings.model,
        systemPrompt: buildSystemPrompt({ custom: settings.systemPrompt, platform: 'gateway' }),
        history: [],
        userMessage: prompt,
        sessionId: `hook-${options.name}-${this.#now().toString(36)}`,
        platform: 'gateway',
        tools: await tools.available({ env, toolsets: settings.toolsets }),
        hooks,
        logger: logger.child({ hook: options.name }),
        requestApproval: createApprovalGate({ hooks, surface: 'gateway', sessionKey: `hook:${options.name}` }),
        cwd: settings.cwd,
        maxIterations: options.maxIterations ?? settings.maxIterations,
        toolTimeoutMs: settings.toolTimeoutMs,
        signal: this.#oneShots.signal,
      });
      return {
        status: result.status,
        text: result.finalText === null ? null : this.#redact(result.finalText),
        ...(result.error ? { error: failureMessage(result.error, result.status, logger) } : {}),
      };
    } catch (err) {
      return { status: 'failed', text: null, error: failureMessage(err, 'failed', logger) };
    }
  }

  /** `text` through the process's secret redactor (when the gateway was given one). */
  #redact(text: string): string {
    return this.#deps.redact ? this.#deps.redact(text) : text;
  }

  /**
   * Sends text for a gateway hook: `telegram` (its home channel), `home` (the first connected
   * platform with a home channel) or `telegram:CHAT_ID[:THREAD_ID]`.
   */
  async hookSend(target: string, text: string): Promise<HookSendResult> {
    const env = this.#deps.env;
    const homeOf = (platform: string) => env[`${platform.toUpperCase()}_HOME_CHANNEL`];
    let platform: string;
    let chatId: string | undefined;
    let threadId: string | undefined;
    if (target === 'home') {
      platform = [...this.adapters.keys()].find((p) => homeOf(p)) ?? '';
      if (!platform) return { ok: false, error: 'no connected platform has a home channel (send /sethome in a chat)' };
      chatId = homeOf(platform);
    } else {
      [platform = '', chatId, threadId] = target.split(':');
      chatId ||= homeOf(platform);
    }
    if (!this.adapters.has(platform)) return { ok: false, error: `platform "${platform}" is not connected` };
    if (!chatId) return { ok: false, error: `${platform} has no home channel (send /sethome in a chat)` };
    const result = await this.sendTo({ platform, chatId, ...(threadId ? { threadId } : {}) }, text);
    return result.failed === 0 ? { ok: true } : { ok: false, error: result.errors.join('; ') };
  }

  /** pre_gateway_dispatch's handles: the documented operations only, never `this` or the store. */
  #dispatchHandles(): DispatchHandles {
    const { store, settings } = this.#deps;
    this.#handles ??= createDispatchHandles({
      platforms: () => [...this.adapters.keys()],
      send: (target, text) => this.hookSend(target, text),
      sessions: store.sessions,
      transcripts: store.transcripts,
      groupSessions: settings.groupSessions,
      changed: (key) => this.#sessions.forget(key),
    });
    return this.#handles;
  }

  /** Accepts an inbound event: persisted in the inbox (dedupe) before it is processed. */
  async accept(inbound: MessageEvent, options: { state?: Record<string, string> } = {}): Promise<void> {
    const { store, settings } = this.#deps;
    const acceptedAt = this.metrics.now();
    let event = inbound;
    const sessionKey = sessionKeyFor(event.source, settings.groupSessions);
    const write = (payload: MessageEvent) => () =>
      store.inbox.accept(payload.platform, payload.messageId, payload, {
        sessionKey,
        ...(options.state ? { state: options.state } : {}),
      });
    let accepted: Awaited<ReturnType<ReturnType<typeof write>>>;
    try {
      accepted = await this.#commits.run(write(event));
    } catch (err) {
      // JSON.stringify overflows the stack on a raw platform payload nested thousands of levels deep:
      // the message is kept without its raw payload rather than refused forever (a retry loop or a loss)
      if (!(err instanceof RangeError)) throw err;
      this.#deps.logger.warn(
        { platform: event.platform, messageId: event.messageId },
        'inbound payload nested too deeply to store; accepted without its raw payload',
      );
      event = { ...event, raw: null };
      accepted = await this.#commits.run(write(event));
    }
    const counters = this.metrics.platform(event.platform);
    if (!accepted.accepted) {
      counters.duplicate.inc();
      return; // redelivered: processed once already
    }
    counters.accepted.inc();
    if (!this.#accepting) return; // stays in the inbox for the next start
    this.#track(this.#process(accepted.id, event, acceptedAt));
  }

  /** Processes an accepted event through the pipeline; awaited by tests through `idle()`. */
  async idle(): Promise<void> {
    while (this.#processing.size > 0) await Promise.all([...this.#processing]);
    await this.#lanes.idle();
  }

  #track(work: Promise<void>): void {
    const p = work
      .catch((err: unknown) => this.#deps.logger.error({ err }, 'pipeline failure'))
      .finally(() => this.#processing.delete(p));
    this.#processing.add(p);
  }

  #recover(unfinished: ReturnType<InboxPort['pending']>): void {
    for (const row of unfinished) {
      const event = row.payload as MessageEvent;
      if (typeof event !== 'object' || event === null || typeof event.text !== 'string' || !event.source) {
        this.#deps.store.inbox.mark(row.id, 'failed');
        continue;
      }
      const written = this.#deps.store.outbox.forInbox(row.id);
      if (row.attempts >= MAX_RESUME_ATTEMPTS && written.length === 0) {
        // resumed and cut off this many times already (it may be what crashes the gateway): give up, say so
        this.#deps.logger.warn({ inboxId: row.id, platform: row.platform }, 'giving up on a message resumed too often');
        this.#track(this.#tellInterrupted(row.id, event));
        continue;
      }
      this.#deps.logger.info({ inboxId: row.id, platform: row.platform }, 'resuming an accepted message');
      this.#deps.store.inbox.mark(row.id, 'processing'); // counts the attempt
      if (written.length > 0) {
        // the answer was already written: send what is not sent yet, never run the turn again
        this.#track(this.#resend(row.id, event, written));
      } else {
        this.#track(this.#process(row.id, event, this.metrics.now()));
      }
    }
  }

  /** `acceptedAt`: when the message was accepted (or resumed after a restart), on the metrics clock. */
  async #process(inboxId: number, original: MessageEvent, acceptedAt: number): Promise<void> {
    const { hooks, store, settings, env } = this.#deps;
    let event = original;
    if (!event.internal) {
      const decision = await hooks.invoke('pre_gateway_dispatch', { event, ...this.#dispatchHandles() });
      if (decision.action === 'skip') {
        this.metrics.platform(event.platform).ignored('hook_skip');
        store.inbox.mark(inboxId, 'skipped');
        return;
      }
      if (decision.action === 'rewrite') event = { ...event, text: decision.text };
      const s = event.source;
      if (!allowedByEnv(s.platform, s.userId, env) && !store.pairing.isApproved(s.platform, s.userId)) {
        this.metrics.platform(event.platform).ignored('unauthorized');
        if (s.chatType === 'dm') await this.#sendPairingCode(inboxId, event);
        else store.inbox.mark(inboxId, 'skipped');
        return;
      }
      if (!isAddressed(event, settings.freeResponseChats)) {
        this.metrics.platform(event.platform).ignored('not_addressed');
        store.inbox.mark(inboxId, 'skipped');
        return;
      }
    }
    if (this.#knownChats.size >= KNOWN_CHATS_MAX) this.#knownChats.clear();
    this.#knownChats.add(`${event.platform}:${event.source.chatId}`);
    if (event.source.threadId)
      this.#knownChats.add(`${event.platform}:${event.source.chatId}:${event.source.threadId}`);
    const sessionKey = sessionKeyFor(event.source, settings.groupSessions);
    const command = parseCommand(event.text);
    if (command) {
      const ctx: CommandContext = {
        platform: event.platform,
        chatId: event.source.chatId,
        userId: event.source.userId,
        sessionKey,
        args: command.args,
      };
      this.events.emit(`command:${command.name}`, {
        platform: event.platform,
        user_id: event.source.userId,
        command: command.name,
        args: command.args,
      });
      let reply: string;
      try {
        reply = await runCommand(command.name, ctx, this.#commandServices(event, inboxId, acceptedAt));
      } catch (err) {
        this.#deps.logger.warn({ err, command: command.name }, `command /${command.name} failed`);
        reply = `/${command.name} failed: ${err instanceof Error ? err.message : String(err)}`;
      }
      // /queue and /steer hand the message to a lane, which answers (and marks) it under its inbox id
      const handedOn = (command.name === 'queue' || command.name === 'steer') && command.args !== '';
      const markDone = () => store.inbox.mark(inboxId, 'done');
      if (reply) {
        const target = this.#target(event, handedOn ? undefined : inboxId);
        await deliver(this.#deliveryOptions(), target, reply, handedOn ? {} : { onSettled: markDone });
      } else if (!handedOn) markDone();
      return;
    }
    // the row stays `accepted` until answered: a restart resumes it (marking `processing` counts restarts)
    this.#lanes.submit(sessionKey, { inboxId, event, text: event.text, acceptedAt }, settings.busyMode);
  }

  async #tellInterrupted(inboxId: number, event: MessageEvent): Promise<void> {
    const quoted = event.text.length > 60 ? `${event.text.slice(0, 60)}…` : event.text;
    const text = `Sorry, your message "${quoted}" was interrupted by a restart and could not be answered. Please send it again.`;
    await deliver(this.#deliveryOptions(), this.#target(event, inboxId), text, {
      onSettled: () => this.#deps.store.inbox.mark(inboxId, 'interrupted'),
    });
  }

  async #resend(inboxId: number, event: MessageEvent, rows: readonly OutboxRowLike[]): Promise<void> {
    await resendPending(this.#deliveryOptions(), this.#target(event, inboxId), rows);
    this.#deps.store.inbox.mark(inboxId, 'done');
  }

  /**
   * A stranger's DM: one reply per stranger an hour, the one that hands out their code. Later messages
   * (their code still pending, or expired early to make room) stay in the inbox unanswered.
   */
  async #sendPairingCode(inboxId: number, event: MessageEvent): Promise<void> {
    const s = event.source;
    const pairing = this.#deps.store.pairing.request(s.platform, s.userId, s.userName);
    if ('refused' in pairing || !pairing.isNew) {
      this.#deps.store.inbox.mark(inboxId, 'refused');
      return;
    }
    const text = `Hi! I don't know you yet. Your pairing code is ${pairing.code} (valid for 1 hour).\nAsk the owner to run: hermes pairing approve ${s.platform} ${pairing.code}`;
    await deliver(this.#deliveryOptions(), this.#target(event, inboxId), text, {
      onSettled: () => this.#deps.store.inbox.mark(inboxId, 'done'),
    });
  }

  #target(event: MessageEvent, inboxId?: number): DeliveryTarget {
    return {
      platform: event.platform,
      chatId: event.source.chatId,
      ...(event.source.threadId ? { threadId: event.source.threadId } : {}),
      ...(event.source.chatType !== 'dm'
        ? { replyToMessageId: event.messageId.split(':').pop() ?? event.messageId }
        : {}),
      ...(inboxId !== undefined ? { inboxId } : {}),
    };
  }

  #deliveryOptions() {
    const { store, logger } = this.#deps;
    return {
      adapters: this.adapters,
      outbox: store.outbox,
      logger,
      commit: this.#commit,
      observer: this.metrics,
      ...(this.#deps.redact ? { redact: this.#deps.redact } : {}),
      rateLimiter: this.#rateLimiter,
    };
  }

  /** The active session for a key, replaced by a fresh one per the reset policy. */
  async #session(
    sessionKey: string,
    platform: string,
    userId: string,
  ): Promise<{ id: string; isNew: boolean; cached: CachedSession }> {
    const { store, settings, hooks } = this.#deps;
    let active = this.#sessions.get(sessionKey);
    // a session idle this long may have been pruned (state.retention_days, `hermes state prune`): read it again
    if (active && this.#now() - active.updatedAt > CACHED_SESSION_TRUST_MS) {
      this.#sessions.forget(sessionKey);
      active = undefined;
    }
    if (!active) {
      const row = store.sessions.activeByKey(sessionKey);
      if (row) active = this.#sessions.replaced(sessionKey, { id: row.id, updatedAt: row.updatedAt, history: null });
    }
    if (active && !needsReset(active.updatedAt, settings.resetPolicy, this.#now()))
      return { id: active.id, isNew: false, cached: active };
    if (active) {
      await hooks.invoke('on_session_finalize', { sessionId: active.id, platform });
      store.sessions.end(active.id, 'reset_policy');
      this.events.emit('session:end', { platform, user_id: userId, session_key: sessionKey });
    }
    const created = store.sessions.create({ key: sessionKey, platform, model: settings.model });
    const cached = this.#sessions.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    if (active) await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    return { id: created.id, isNew: true, cached };
  }

  async #resetSession(sessionKey: string, platform: string, userId: string): Promise<string> {
    const { store, hooks, settings } = this.#deps;
    this.#lanes.stop(sessionKey);
    const active = store.sessions.activeByKey(sessionKey);
    await hooks.invoke('on_session_finalize', { sessionId: active?.id ?? null, platform });
    if (active) {
      store.sessions.end(active.id, 'reset');
      this.events.emit('session:end', { platform, user_id: userId, session_key: sessionKey });
    }
    const created = store.sessions.create({ key: sessionKey, platform, model: settings.model });
    this.#sessions.replaced(sessionKey, { id: created.id, updatedAt: created.updatedAt, history: [] });
    await hooks.invoke('on_session_reset', { sessionId: created.id, platform });
    this.events.emit('session:reset', { platform, user_id: userId, session_key: sessionKey });
    return 'Started a new session.';
  }

  async #runJob(job: LaneJob, control: RunControl): Promise<void> {
    const { store, hooks, settings, client, tools, env, logger } = this.#deps;
    const { event } = job;
    const platform = event.platform;
    const sessionKey = sessionKeyFor(event.source, settings.groupSessions);
    const session = await this.#session(sessionKey, platform, event.source.userId);
    const base = { platform, user_id: event.source.userId, session_id: session.id };
    if (session.isNew) this.events.emit('session:start', { ...base, session_key: sessionKey });
    this.events.emit('agent:start', { ...base, message: job.text });
    this.#origins.set(session.id, this.#target(event));
    const adapter = this.adapters.get(platform);
    // typing starts only when the turn is not over quickly: a fast answer costs no extra API call
    const sendTyping = () => void adapter?.sendTyping?.(event.source.chatId, event.source.threadId).catch(() => {});
    let typing: NodeJS.Timeout | null = null;
    const firstTyping = adapter?.sendTyping
      ? setTimeout(() => {
          sendTyping();
          typing = setInterval(sendTyping, TYPING_INTERVAL_MS);
        }, TYPING_DELAY_MS)
      : null;
    const history = session.cached.history ?? store.transcripts.list(session.id);
    let cacheUpdated = false;
    try {
      const result = await runTurn({
        client,
        model: settings.model,
        systemPrompt: buildSystemPrompt({ custom: settings.systemPrompt, platform }),
        history,
        userMessage: job.text,
        sessionId: session.id,
        platform,
        tools: await tools.available({ env, toolsets: settings.toolsets }),
        hooks,
        logger,
        // nobody to ask on a messaging platform: denied (unless yolo), with the approval hooks fired
        requestApproval: createApprovalGate({ hooks, surface: 'gateway', sessionKey }),
        cwd: settings.cwd,
        maxIterations: settings.maxIterations,
        toolTimeoutMs: settings.toolTimeoutMs,
        signal: control.signal,
        takeSteering: control.takeSteering,
        onStep: ({ iteration, toolNames }) =>
          this.events.emit('agent:step', { ...base, iteration, tool_names: toolNames }),
      });
      const counters = this.metrics.platform(platform);
      counters.turnEnded(result.status);
      control.settle(); // only delivery is left: a new message now queues behind this answer
      if (result.status === 'interrupted' && !this.#accepting) {
        // cut off by shutdown: leave it pending (and out of the transcript) so the next start redoes it once
        return;
      }
      const appendTranscript = () => store.transcripts.append(session.id, result.messages);
      const cacheAppend = () => {
        this.#sessions.appended(sessionKey, session.id, history, result.messages, this.#now());
        cacheUpdated = true;
      };
      this.events.emit('agent:end', { ...base, message: job.text, response: this.#redact(result.finalText ?? '') });
      if (result.status === 'interrupted') {
        store.transaction(() => {
          appendTranscript();
          store.inbox.mark(job.inboxId, 'interrupted');
        });
        cacheAppend();
        return;
      }
      const answer =
        result.status === 'completed' && result.finalText !== null
          ? result.finalText
          : failureReply(result.error, result.status, logger);
      const markInbox = () => store.inbox.mark(job.inboxId, result.status === 'completed' ? 'done' : 'failed');
      if (answer.trim() === SILENT_MARKER) {
        store.transaction(() => {
          appendTranscript();
          markInbox();
        });
        cacheAppend();
        return;
      }
      // three commits per answered message: accept; transcript + outbox rows; sent mark + inbox done
      const delivered = await deliver(this.#deliveryOptions(), this.#target(event, job.inboxId), answer, {
        withEnqueue: appendTranscript,
        onSettled: markInbox,
      });
      cacheAppend();
      if (delivered.failed === 0 && delivered.sent > 0) counters.answered((this.metrics.now() - job.acceptedAt) / 1000);
    } finally {
      // a turn that ended without a known commit leaves the cached transcript uncertain
      if (!cacheUpdated) this.#sessions.forget(sessionKey);
      if (firstTyping) clearTimeout(firstTyping);
      if (typing) clearInterval(typing);
      this.#origins.delete(session.id);
    }
  }

  /** The chat a running session answers (send_message's `origin`). */
  originOf(sessionId: string): DeliveryTarget | undefined {
    return this.#origins.get(sessionId);
  }

  /** Whether authorized users wrote from this chat (this thread of it, when given) since the gateway started. */
  isKnownChat(platform: string, chatId: string, threadId?: string): boolean {
    return this.#knownChats.has(threadId ? `${platform}:${chatId}:${threadId}` : `${platform}:${chatId}`);
  }

  /** Sends Markdown text to a chat through the one delivery path (format, split, outbox, retry). */
  sendTo(target: DeliveryTarget, markdown: string) {
    return deliver(this.#deliveryOptions(), target, markdown);
  }

  #commandServices(event: MessageEvent, inboxId: number, acceptedAt: number): CommandServices {
    const { store, settings } = this.#deps;
    return {
      resetSession: (key, platform) => this.#resetSession(key, platform, event.source.userId),
      stopRun: (key) => this.#lanes.stop(key),
      status: (key) => {
        const s = store.sessions.activeByKey(key);
        const platforms = Object.entries(this.platformStates())
          .map(([n, st]) => `${n}: ${st.state}`)
          .join(', ');
        return [
          `Session: ${s ? s.id : 'none yet'}${s ? ` (${store.transcripts.count(s.id)} messages)` : ''}`,
          `Running: ${this.#lanes.busy(key) ? 'yes' : 'no'}`,
          `Model: ${settings.model}`,
          `Platforms: ${platforms}`,
        ].join('\n');
      },
      model: () => `Model: ${settings.model} (change it with: hermes config set model.default <id>)`,
      usage: (key) => {
        const s = store.sessions.activeByKey(key);
        return s ? `This session has ${store.transcripts.count(s.id)} messages.` : 'No session yet.';
      },
      plugins: () => this.#deps.pluginSummary(),
      enqueue: (ctx, mode) => {
        if (!ctx.args) return `Usage: /${mode} TEXT`;
        store.inbox.mark(inboxId, 'processing');
        const outcome = this.#lanes.submit(ctx.sessionKey, { inboxId, event, text: ctx.args, acceptedAt }, mode);
        return outcome === 'started' ? '' : mode === 'steer' ? 'Handed to the running answer.' : 'Queued.';
      },
      setHome: (platform, chatId) => {
        this.#deps.setHomeChannel(platform, chatId);
        return `This chat is now the ${platform} home channel.`;
      },
      pluginCommands: this.#deps.pluginCommands,
    };
  }
}
