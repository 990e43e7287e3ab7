/**
 * The gateway: platform adapters feed one pipeline of stages (`pipeline/`): accept/dedupe,
 * pre_gateway_dispatch, authorize, address rules, commands, session lane, session, turn, delivery;
 * the surfaces without an inbox (the API platform, cron, hooks' runAgent) submit their turn jobs
 * to the same stages (`submitTurn`). The gateway composes them and owns their shared state; each
 * stage gets narrow ports. Built separately from listening, so tests start and stop whole gateways
 * in-process. */

import { mkdirSync } from 'node:fs';
import type { TurnService } from '@hermes/agent';
import {
  type HookAgentResult,
  type HookSendResult,
  type MessageEvent,
  type PlatformAdapter,
  type PlatformState,
  sessionKeyFor,
} from '@hermes/protocol';
import { type GatewayAccess, gatewayAccess } from '../access/gateway-access.js';
import { ChatApprovals } from '../approvals/chat-approvals.js';
import { ChatClarify, CLARIFY_ACTION } from '../approvals/chat-clarify.js';
import { gatewayCommandPorts } from '../commands/command-ports.js';
import { ActionButtons } from '../delivery/action-buttons.js';
import type { DeliveryTarget } from '../delivery/deliver.js';
import { GatewayDelivery } from '../delivery/gateway-delivery.js';
import { KnownChats } from '../delivery/known-chats.js';
import { GatewayEvents } from '../gateway-hooks/gateway-events.js';
import { runHookAgent } from '../gateway-hooks/hook-agent.js';
import { hookSend } from '../gateway-hooks/hook-send.js';
import { type ChatIntakePorts, runChatStages } from '../intake/chat-intake.js';
import { submitDirect } from '../intake/direct-intake.js';
import { type PendingRow, recoverUnfinished, recoveryPorts } from '../intake/recover.js';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { acceptEvent } from '../pipeline/accept.js';
import { MessageBatcher, mayBeCutPart } from '../pipeline/batch.js';
import type { CommandPorts } from '../pipeline/command.js';
import { gatewayHandleDeps, lazyDispatchHandles, PendingIngests } from '../pipeline/dispatch-handles.js';
import {
  type DirectTurnJob,
  type GatewayTurnJob,
  type LaneJob,
  replyTarget,
  type StageInput,
} from '../pipeline/input.js';
import type { PipelineOutcome } from '../pipeline/outcome.js';
import { SessionStage } from '../pipeline/session.js';
import { finishDropped } from '../sessions/dropped-jobs.js';
import { clusterGuard, guardSession } from '../sessions/session-guard.js';
import { type BusyMode, busyModeFor, SessionLanes } from '../sessions/session-lanes.js';
import { SessionSweep } from '../sessions/session-sweep.js';
import { chatTurnJob } from '../turn/chat-reply.js';
import { runTurnStage, type TurnStagePorts } from '../turn/turn.js';
import { holdsFiles, intoUserCache } from '../users/user-media.js';
import { gatewayChatIntake } from './chat-intake-ports.js';
import { drain } from './drain.js';
import { type GatewayDeps, gatewayTurnService } from './gateway-deps.js';
import { launchPlatforms } from './launch.js';
import { gatewayPlatformPorts, type RouteDefinition, setUpPlatforms } from './platform-setup.js';
import { gatewayTurnPorts } from './turn-ports.js';

export class Gateway {
  readonly adapters: Map<string, PlatformAdapter>;
  readonly events: GatewayEvents;
  readonly routes: RouteDefinition[] = [];
  readonly metrics: GatewayMetrics;
  /** every turn the gateway runs (every surface's, through the turn stage) */
  readonly turns: TurnService;
  /** dangerous commands waiting for the approval of the user who started the turn */
  readonly approvals: ChatApprovals;
  /** the clarify tool's questions waiting for the answer of the user who started the turn */
  readonly clarify: ChatClarify;
  /** the actions a button the gateway posted may carry (a cron job's Cancel) */
  readonly actions: ActionButtons;
  readonly #deps: GatewayDeps;
  readonly #sessions: SessionStage;
  readonly #sweep: SessionSweep; // finalizes sessions idle past the reset policy
  /** aborts one-shot agent runs (gateway hooks) when the gateway stops */
  readonly #oneShots = new AbortController();
  /** machine-wide platform token claims, released at stop */
  readonly #claims: { release(): void }[];
  readonly #lanes: SessionLanes<GatewayTurnJob>;
  readonly #now: () => number;
  readonly #processing = new Set<Promise<void>>();
  readonly #failed: Map<string, PlatformState>;
  /** the chat each running session answers, for send_message's `origin` */
  readonly #origins = new Map<string, DeliveryTarget>();
  /** chats authorized users wrote from since start: send_message may address them */
  readonly #knownChats = new KnownChats();
  /** every send: one delivery path with the platforms' shared send limits */
  readonly #delivery: GatewayDelivery;
  readonly #turnPorts: TurnStagePorts;
  /** the users' tiers and limits (access/) */
  readonly #access: GatewayAccess;
  readonly #chatIntake: ChatIntakePorts;
  /** one user's messages in one chat within gateway.batch_ms become one job (pipeline/batch.ts) */
  readonly #batcher: MessageBatcher;
  /** `sessionStore.ingest` writes a hook started: awaited before the message goes on */
  readonly #ingests = new PendingIngests();
  readonly #handles = lazyDispatchHandles(
    () => gatewayHandleDeps(this, this.#deps, this.#sessions.cache),
    this.#ingests,
  );
  #accepting = true;

  constructor(deps: GatewayDeps) {
    const { settings, store } = deps;
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.metrics = deps.metrics ?? new GatewayMetrics();
    const hookTimeout = settings.hookTimeoutMs !== undefined ? { timeoutMs: settings.hookTimeoutMs } : {};
    this.events = new GatewayEvents(deps.hooks, hookTimeout); // on the hook bus: its observer times them
    this.turns = deps.turns ?? gatewayTurnService(deps);
    this.#delivery = new GatewayDelivery({
      adapters: () => this.adapters,
      commit: store.commit,
      logger: deps.logger,
      observer: this.metrics,
      ...(deps.redact ? { redact: deps.redact } : {}),
      ...(settings.outboundMedia ? { outboundMedia: settings.outboundMedia } : {}),
    });
    this.#sessions = new SessionStage({
      sessions: store.sessions,
      hooks: deps.hooks,
      events: this.events,
      model: settings.turn.model,
      resetPolicy: settings.resetPolicy,
      now: this.#now,
    });
    const adapters = { get: (name: string) => this.adapters.get(name) };
    const sendText = (event: MessageEvent, text: string) => this.#delivery.send(replyTarget(event), text);
    const { approvalTimeoutMs: timeoutMs } = settings;
    this.approvals = new ChatApprovals({ hooks: deps.hooks, logger: deps.logger, adapters, sendText, timeoutMs });
    const clarifyTimeoutMs = settings.clarifyTimeoutMs;
    this.clarify = new ChatClarify({ logger: deps.logger, adapters, sendText, timeoutMs: clarifyTimeoutMs });
    const guard = clusterGuard(deps.sessionGuard, this.#sessions.cache, settings.busyMode, () => this.#lanes);
    this.#lanes = new SessionLanes<GatewayTurnJob>({
      maxConcurrent: settings.maxConcurrentRuns,
      // a session more than one instance can run is run under its cluster lease (nothing to guard without one)
      runner: (job, control) =>
        guardSession(guard, job.plan.session.apply ? job.sessionKey : null, () =>
          runTurnStage(this.#turnPorts, job, control),
        ),
      withText: (job, text) => ({ ...job, input: { ...job.input, text } }),
      textOf: (job) => job.input.text,
      // messages queued behind a turn that /stop or /new cancelled: finished, or they would stay pending
      onDrop: (jobs) => this.#track(finishDropped(store.commit, jobs)),
    });
    const sweepPorts = { sessions: store.sessions, stage: this.#sessions, lanes: this.#lanes, guard, now: this.#now };
    const platforms = () => [...this.adapters.keys(), 'api'];
    this.#sweep = new SessionSweep({ ...sweepPorts, policy: settings.resetPolicy, logger: deps.logger, platforms });
    const submit = (job: LaneJob) => this.#submitChat(job, busyModeFor(settings.busyMode, job.event));
    const onDrop = (jobs: LaneJob[]) => this.#track(finishDropped(store.commit, jobs.map(chatTurnJob)));
    const limit = (platform: string) => this.adapters.get(platform)?.capabilities.maxMessageLength ?? Infinity;
    const opens = (job: LaneJob) => mayBeCutPart(job.event.text, limit(job.event.platform));
    this.#batcher = new MessageBatcher({ batchMs: settings.batchMs ?? 0, submit, onDrop, opens });
    this.#access = gatewayAccess({
      settings: settings.access,
      env: deps.env,
      store,
      now: deps.limitsNow ?? this.#now,
      metrics: this.metrics,
    });
    this.actions = new ActionButtons({ users: store.identityLinks, access: this.#access, logger: deps.logger });
    this.actions.register(CLARIFY_ACTION, (press) => this.clarify.press(press));
    this.#turnPorts = gatewayTurnPorts({
      deps,
      access: this.#access,
      turns: this.turns,
      sessions: this.#sessions,
      events: this.events,
      metrics: this.metrics,
      delivery: this.#delivery,
      approvals: this.approvals,
      clarify: this.clarify,
      origins: this.#origins,
      accepting: () => this.#accepting,
      now: this.#now,
    });
    this.#chatIntake = gatewayChatIntake({
      deps,
      handles: this.#handles,
      ingests: this.#ingests,
      metrics: this.metrics,
      delivery: this.#delivery,
      clarify: this.clarify,
      batcher: this.#batcher,
      remember: (event) => this.#knownChats.remember(event),
      commandPorts: (userId) => this.commandPorts(userId),
      submitChat: (job, mode) => this.#submitChat(job, mode),
    });
    mkdirSync(settings.cacheDir, { recursive: true, mode: 0o700 }); // attachments users sent: owner-only
    // routes only while the adapters are created: the server takes them before it listens
    let creating = true;
    const setup = setUpPlatforms(
      gatewayPlatformPorts(deps, this.#now, (platform, route) => {
        if (!creating) throw new Error(`platform ${platform} added route ${route.path} after its adapter was created`);
        this.routes.push(route);
      }),
    );
    creating = false;
    this.adapters = setup.adapters;
    this.#failed = setup.failed;
    this.#claims = setup.claims;
    this.#turnPorts.chat.adapters = this.adapters;
    // every platform's series exist from the start (at zero), so rates and alerts see them
    for (const name of this.adapters.keys()) this.metrics.platform(name);
    this.metrics.attach({
      platformStates: () => this.platformStates(),
      lanes: () => this.#lanes.stats(),
      outboxPending: () => store.outbox.pendingCounts(),
    });
  }

  /** Per-platform connection states. */
  platformStates(): Record<string, PlatformState> {
    const out: Record<string, PlatformState> = Object.fromEntries(this.#failed);
    for (const [name, adapter] of this.adapters) out[name] = adapter.status();
    return out;
  }

  /** launch(), resolving once every platform has started (connected or failed). */
  async start(): Promise<void> {
    await this.launch().connected;
  }

  /** Starts connecting every platform without waiting (launch.ts); gateway:startup fires once all have started. */
  launch(): { connected: Promise<void> } {
    this.metrics.startSampling();
    this.#sweep.start();
    const connected = (this.#deps.launch ?? launchPlatforms)({
      adapters: this.adapters,
      sink: {
        accept: (event, options) => this.accept(event, options),
        approvalPress: async (p) => this.approvals.press(p),
        actionPress: (p) => this.actions.press(p),
      },
      logger: this.#deps.logger,
      unfinished: () => this.#deps.store.inbox.claimUnfinished({}),
      recover: (rows) => this.#recover(rows),
      accepting: () => this.#accepting,
    }).then(() => {
      this.events.emit('gateway:startup', { platforms: [...this.adapters.keys()] });
    });
    return { connected };
  }

  /** Graceful stop (drain.ts): running turns get up to `drainMs`, then the platforms disconnect. */
  async stop(drainMs = 0): Promise<void> {
    this.#accepting = false;
    await drain(
      {
        sweep: this.#sweep,
        batcher: this.#batcher,
        processing: () => [...this.#processing],
        lanes: this.#lanes,
        abortAll: () => finishDropped(this.#deps.store.commit, this.#lanes.abortAll(), true),
        abortOneShots: () => this.#oneShots.abort(new Error('gateway stopping')),
        adapters: this.adapters.values(),
      },
      drainMs,
    );
    this.metrics.stopSampling();
    for (const claim of this.#claims.splice(0)) claim.release();
  }

  /**
   * A job of a surface without an inbox (the API platform, cron, a hook's `runAgent`) through its
   * plan's stages (intake/direct-intake.ts), its lane and the turn stage; its sink gets the outcome.
   */
  submitTurn(submitted: Omit<DirectTurnJob, 'acceptedAt'>): void {
    const job: DirectTurnJob = { ...submitted, acceptedAt: this.metrics.now() };
    const { hooks, settings } = this.#deps;
    const ports = {
      dispatch: { hooks, handles: this.#handles },
      ingests: this.#ingests,
      metrics: this.metrics,
      busyMode: settings.busyMode,
      accepting: () => this.#accepting,
      submit: (j: GatewayTurnJob, mode: BusyMode) => this.#lanes.submit(j.sessionKey, j, mode),
      commands: (userId: string) => this.commandPorts(userId),
    };
    submitDirect(ports, job).catch((error: unknown) => job.sink.settle({ kind: 'error', error }));
  }

  /** A gateway hook's `runAgent`: a turn nothing is stored for, cut off when the gateway stops. */
  runOneShot(prompt: string, options: { name: string; maxIterations?: number }): Promise<HookAgentResult> {
    const logger = this.#deps.logger.child({ hook: options.name });
    const hook = { ...options, signal: this.#oneShots.signal, logger, now: this.#now() };
    return runHookAgent((job) => this.submitTurn(job), prompt, hook);
  }

  /** Sends text for a gateway hook (`telegram`, `home` or `telegram:CHAT_ID[:THREAD_ID]`). */
  hookSend(target: string, text: string): Promise<HookSendResult> {
    return hookSend(
      { env: this.#deps.env, connected: [...this.adapters.keys()], send: (t, m) => this.sendTo(t, m) },
      target,
      text,
    );
  }

  /** Accepts an inbound event: persisted in the inbox (dedupe) before it is processed. */
  async accept(received: MessageEvent, options: { state?: Record<string, string> } = {}): Promise<void> {
    const acceptedAt = this.metrics.now();
    const { store, settings, logger } = this.#deps;
    // a message without files (most) is not awaited here
    const inbound = holdsFiles(received)
      ? await intoUserCache(received, {
          ownerOf: (identity) => store.identityLinks.ownerOf(identity),
          cacheDir: settings.cacheDir,
          logger,
        })
      : received;
    // the one place a message's session key is computed: every later stage reads it from its input
    const sessionKey = sessionKeyFor(inbound.source, settings.groupSessions);
    const accepted = await acceptEvent({ commit: store.commit, logger }, inbound, sessionKey, options.state);
    const counters = this.metrics.platform(inbound.platform);
    if (accepted.kind === 'duplicate') {
      counters.duplicate.inc();
      return; // redelivered: processed once already
    }
    counters.accepted.inc();
    if (!this.#accepting) return; // stays in the inbox for the next start
    this.#track(this.#process({ inboxId: accepted.inboxId, event: accepted.event, sessionKey, acceptedAt }));
  }

  /** Resolves when every accepted event went through the pipeline and no lane is busy. */
  async idle(): Promise<void> {
    while (this.#processing.size > 0 || this.#batcher.waiting > 0) {
      await Promise.all([...this.#processing, this.#batcher.idle()]);
    }
    await this.#lanes.idle();
  }

  #track(work: Promise<unknown>): void {
    // one reaction per message (not then + catch + finally: three promises and their closures)
    const done = () => void this.#processing.delete(p);
    const p: Promise<void> = work.then(done, (err: unknown) => {
      done();
      this.#deps.logger.error({ err }, 'pipeline failure');
    });
    this.#processing.add(p);
  }

  #recover(unfinished: readonly PendingRow[]): void {
    const ports = recoveryPorts({
      ...this.#deps,
      groupSessions: this.#deps.settings.groupSessions,
      delivery: () => this.#delivery.options(true),
      streamIds: this.#turnPorts.chat.streamIds,
      track: (work) => this.#track(work),
      process: (input) => this.#process({ ...input, acceptedAt: this.metrics.now() }),
    });
    this.#track(recoverUnfinished(ports, unfinished));
  }

  /** The stages after the accept (intake/chat-intake.ts). */
  #process(input: StageInput): Promise<PipelineOutcome> {
    return runChatStages(this.#chatIntake, input);
  }

  /** A chat message's job to its session's lane. */
  #submitChat(job: LaneJob, mode: BusyMode) {
    return this.#lanes.submit(job.sessionKey, chatTurnJob(job), mode);
  }

  /** The command ports (`/stop`, `/new`… and the console's stop/reset); `userId`: who sent it */
  commandPorts(userId: string): CommandPorts {
    const { approvals, events, turns } = this;
    const host = {
      deps: this.#deps,
      events,
      lanes: this.#lanes,
      batcher: this.#batcher,
      sessions: this.#sessions,
      access: this.#access,
    };
    return gatewayCommandPorts(
      { ...host, approvals, turns, send: this.#delivery.send, platformStates: () => this.platformStates() },
      userId,
    );
  }

  /** The chat a running session answers (send_message's `origin`). */
  originOf(sessionId: string): DeliveryTarget | undefined {
    return this.#origins.get(sessionId);
  }

  /** Whether authorized users wrote from this chat (this thread of it, when given) since the gateway started. */
  isKnownChat(platform: string, chatId: string, threadId?: string): boolean {
    return this.#knownChats.has(platform, chatId, threadId);
  }

  /** Sends Markdown text (and `media`, file paths) to a chat through the one delivery path (format, split, outbox, retry). */
  sendTo(target: DeliveryTarget, markdown: string, media?: readonly string[]) {
    return this.#delivery.sendAnswer(target, markdown, media);
  }
}
