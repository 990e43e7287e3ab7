/**
 * One gateway's metrics on its own prom-client Registry (in-process gateways in tests never share
 * counters), plus the process-wide default metrics. Pipeline stages record through cells bound
 * once per platform; queue depth, outbox backlog and platform states are read when scraped.
 */
import type { ModelErrorKind, ModelRequestObserver, ModelRequestOutcome, TurnStatus } from '@hermes/agent';
import type { HookCallbackObserver, HookCallbackOutcome, HookOwner } from '@hermes/plugins';
import type { HookName, PlatformState } from '@hermes/protocol';
import { Registry } from 'prom-client';
import type { DeliveryObserver, SendFailure } from '../delivery/deliver.js';
import type { LaneStats } from '../sessions/session-lanes.js';
import { METRICS } from './catalog.js';
import { CellCounter, CellHistogram, type CounterCell, scrapeGauge } from './cells.js';
import type { EventLoopStatus } from './event-loop-watchdog.js';
import { processMetricsRegistry } from './process-metrics.js';
import { ReconnectTracker } from './reconnect-tracker.js';
import { UserLabels } from './user-labels.js';

/** How often platform states are sampled to count reconnects between scrapes. */
export const PLATFORM_SAMPLE_INTERVAL_MS = 1_000;

/** Why an accepted message started no turn. */
export type IgnoredReason = 'unauthorized' | 'hook_skip' | 'not_addressed';

/** What the scrape reads from the running gateway. */
export interface MetricsSources {
  platformStates(): Record<string, PlatformState>;
  lanes(): LaneStats;
  /** pending outbox rows per platform, read from the store at scrape time */
  outboxPending(): Promise<readonly { platform: string; count: number }[]>;
}

export interface GatewayMetricsOptions {
  /** monotonic milliseconds for turn latency (default performance.now) */
  now?: () => number;
  /** users with a `user` label of their own (default MAX_USER_SERIES); later ones count as `other` */
  maxUserSeries?: number;
}

type Sampler = { observe(value: number): void };

/** The counters of one gateway, whose cells PlatformMetrics binds. */
export interface GatewayCounters {
  received: CellCounter;
  ignored: CellCounter;
  sent: CellCounter;
  sendFailures: CellCounter;
  rateLimited: CellCounter;
  turns: CellCounter;
  reconnects: CellCounter;
  modelErrors: CellCounter;
  hookFailures: CellCounter;
  gatewayHookFailures: CellCounter;
  eventLoopStalls: CellCounter;
  userTurns: CellCounter;
  userTokens: CellCounter;
  userCost: CellCounter;
  userLimited: CellCounter;
}

/** The cells of one platform, looked up once per message. */
export class PlatformMetrics {
  readonly accepted: CounterCell;
  readonly duplicate: CounterCell;
  readonly sent: CounterCell;
  readonly rateLimited: CounterCell;
  readonly reconnects: CounterCell;
  readonly #ignored: Record<IgnoredReason, CounterCell>;
  readonly #turns: Record<TurnStatus, CounterCell>;
  readonly #failures = new Map<SendFailure, CounterCell>();
  readonly #turnDuration: Sampler;
  readonly #name: string;
  readonly #sendFailures: CellCounter;

  constructor(name: string, counters: GatewayCounters, turnDuration: CellHistogram) {
    this.#name = name;
    this.accepted = counters.received.cell(name, 'accepted');
    this.duplicate = counters.received.cell(name, 'duplicate');
    this.sent = counters.sent.cell(name);
    this.rateLimited = counters.rateLimited.cell(name);
    this.reconnects = counters.reconnects.cell(name);
    this.#ignored = {
      unauthorized: counters.ignored.cell(name, 'unauthorized'),
      hook_skip: counters.ignored.cell(name, 'hook_skip'),
      not_addressed: counters.ignored.cell(name, 'not_addressed'),
    };
    this.#turns = {
      completed: counters.turns.cell(name, 'completed'),
      failed: counters.turns.cell(name, 'failed'),
      interrupted: counters.turns.cell(name, 'interrupted'),
      max_iterations: counters.turns.cell(name, 'max_iterations'),
    };
    this.#sendFailures = counters.sendFailures;
    turnDuration.zero({ platform: name });
    this.#turnDuration = turnDuration.labels(name);
  }

  ignored(reason: IgnoredReason): void {
    this.#ignored[reason].inc();
  }

  turnEnded(outcome: TurnStatus): void {
    this.#turns[outcome].inc();
  }

  /** A turn's answer was delivered in full, `seconds` after its message was accepted. */
  answered(seconds: number): void {
    this.#turnDuration.observe(seconds);
  }

  sendFailed(error: SendFailure): void {
    let cell = this.#failures.get(error);
    if (!cell) {
      cell = this.#sendFailures.cell(this.#name, error);
      this.#failures.set(error, cell);
    }
    cell.inc();
  }
}

interface HookSeries {
  duration: Sampler;
  error: CounterCell;
  timeout: CounterCell;
}

/** What `consoleSnapshot` reads: totals since start. */
export interface ConsoleMetricsSnapshot {
  received: number;
  answered: number;
  errors: number;
  /** cumulative turn-duration buckets (upper bound in seconds, count of turns at or under it) */
  turnBuckets: { le: number; count: number }[];
}

export class GatewayMetrics implements DeliveryObserver {
  /** every metric of this gateway and the process's default metrics: what /metrics serves */
  readonly registry: Registry;
  /** monotonic milliseconds */
  readonly now: () => number;
  readonly #counters: GatewayCounters;
  readonly #turnDuration: CellHistogram;
  readonly #hookDuration: CellHistogram;
  readonly #gatewayHookDuration: CellHistogram;
  readonly #model: Record<ModelRequestOutcome, Sampler>;
  readonly #modelErrors = new Map<string, CounterCell>();
  readonly #platforms = new Map<string, PlatformMetrics>();
  readonly #hooks = new Map<HookOwner, Map<HookName, HookSeries>>();
  readonly #gatewayHooks = new Map<string, HookSeries>();
  readonly #reconnects = new ReconnectTracker();
  #sources: MetricsSources | null = null;
  readonly #eventLoopStalls: CounterCell;
  #eventLoop: { status(): EventLoopStatus } | null = null;
  #sampler: NodeJS.Timeout | null = null;
  readonly #users: UserLabels;

  constructor(options: GatewayMetricsOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.#users = new UserLabels(options.maxUserSeries);
    const own = new Registry();
    this.#counters = {
      received: new CellCounter(own, METRICS.messagesReceived),
      ignored: new CellCounter(own, METRICS.messagesIgnored),
      sent: new CellCounter(own, METRICS.messagesSent),
      sendFailures: new CellCounter(own, METRICS.sendFailures),
      rateLimited: new CellCounter(own, METRICS.sendRateLimited),
      turns: new CellCounter(own, METRICS.turns),
      reconnects: new CellCounter(own, METRICS.platformReconnects),
      modelErrors: new CellCounter(own, METRICS.modelRequestErrors),
      hookFailures: new CellCounter(own, METRICS.hookFailures),
      gatewayHookFailures: new CellCounter(own, METRICS.gatewayHookFailures),
      eventLoopStalls: new CellCounter(own, METRICS.eventLoopStalls),
      userTurns: new CellCounter(own, METRICS.userTurns),
      userTokens: new CellCounter(own, METRICS.userTokens),
      userCost: new CellCounter(own, METRICS.userCost),
      userLimited: new CellCounter(own, METRICS.userLimited),
    };
    this.#eventLoopStalls = this.#counters.eventLoopStalls.cell();
    this.#turnDuration = new CellHistogram(own, METRICS.turnDuration);
    const model = new CellHistogram(own, METRICS.modelRequestDuration);
    this.#model = { ok: model.labels('ok'), error: model.labels('error'), interrupted: model.labels('interrupted') };
    model.zero({ outcome: 'ok' });
    this.#hookDuration = new CellHistogram(own, METRICS.hookDuration);
    this.#gatewayHookDuration = new CellHistogram(own, METRICS.gatewayHookDuration);
    scrapeGauge(own, METRICS.turnsRunning, () => [[{}, this.#sources?.lanes().running ?? 0]]);
    scrapeGauge(own, METRICS.turnsQueued, () => [[{}, this.#sources?.lanes().queued ?? 0]]);
    scrapeGauge(own, METRICS.outboxPending, async () => {
      const pending = await this.#sources?.outboxPending().catch(() => null);
      if (pending === null) return []; // the store did not answer: no series this scrape rather than a wrong 0
      const counts = new Map<string, number>([...this.#platforms.keys()].map((p) => [p, 0]));
      for (const { platform, count } of pending ?? []) counts.set(platform, count);
      return [...counts].map(([platform, count]) => [{ platform }, count]);
    });
    scrapeGauge(own, METRICS.platformUp, () =>
      Object.entries(this.#sources?.platformStates() ?? {}).map(([platform, s]) => [
        { platform },
        s.state === 'connected' ? 1 : 0,
      ]),
    );
    scrapeGauge(own, METRICS.eventLoopDelayMax, () => [[{}, (this.#eventLoop?.status().max_delay_ms ?? 0) / 1000]]);
    this.registry = Registry.merge([own, processMetricsRegistry()]);
  }

  /**
   * The counters the console's live chart reads (totals since start; the console computes rates
   * between two snapshots): messages accepted, turns completed, failures (failed turns and failed
   * sends), and the turn-duration histogram's cumulative buckets summed over the platforms.
   */
  async consoleSnapshot(): Promise<ConsoleMetricsSnapshot> {
    const buckets = new Map<number, number>();
    for (const v of (await this.#turnDuration.get()).values) {
      if (!v.metricName?.endsWith('_bucket')) continue;
      const le = v.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(v.labels.le);
      buckets.set(le, (buckets.get(le) ?? 0) + v.value);
    }
    return {
      received: this.#counters.received.sum((l) => l.result === 'accepted'),
      answered: this.#counters.turns.sum((l) => l.status === 'completed'),
      errors: this.#counters.turns.sum((l) => l.status === 'failed') + this.#counters.sendFailures.sum(),
      turnBuckets: [...buckets].sort((a, b) => a[0] - b[0]).map(([le, count]) => ({ le, count })),
    };
  }

  /** Several instances on one database: every series gets an `instance` label naming this one. */
  labelInstance(instance: string): void {
    this.registry.setDefaultLabels({ instance });
  }

  /** Connects the scrape-time readings to the gateway (its lanes, outbox and platforms). */
  attach(sources: MetricsSources): void {
    this.#sources = sources;
  }

  /** Reads the longest event-loop delay from the watchdog at scrape time. */
  watchEventLoop(watchdog: { status(): EventLoopStatus }): void {
    this.#eventLoop = watchdog;
  }

  /** For EventLoopWatchdog options: one stall of the main thread. */
  readonly eventLoopStalled = (): void => {
    this.#eventLoopStalls.inc();
  };

  /** The cells of one platform (created at zero on first use). */
  platform(name: string): PlatformMetrics {
    let p = this.#platforms.get(name);
    if (!p) {
      p = new PlatformMetrics(name, this.#counters, this.#turnDuration);
      this.#platforms.set(name, p);
    }
    return p;
  }

  /** A turn a user started (access/usage-limits.ts). */
  userTurn(userKey: string, tier: string): void {
    this.#counters.userTurns.cell(this.#users.label(userKey), tier).inc();
  }

  /** A user's turn's reported tokens and their cost. */
  userUsage(userKey: string, tokens: number, cost: number): void {
    const user = this.#users.label(userKey);
    this.#counters.userTokens.cell(user).inc(tokens);
    this.#counters.userCost.cell(user).inc(cost);
  }

  /** A turn refused by the user's `limit`. */
  userLimited(userKey: string, limit: string): void {
    this.#counters.userLimited.cell(this.#users.label(userKey), limit).inc();
  }

  messageSent(platform: string): void {
    this.platform(platform).sent.inc();
  }

  messageFailed(platform: string, error: SendFailure): void {
    this.platform(platform).sendFailed(error);
  }

  rateLimited(platform: string): void {
    this.platform(platform).rateLimited.inc();
  }

  /** For HookBus options: plugin and shell hook callbacks; gateway hooks (owner `gateway:NAME`) in their own series. */
  readonly observeHookCallback: HookCallbackObserver = (hook, owner, durationMs, outcome) => {
    if (owner.source === 'gateway') {
      this.#observeGatewayHook(owner.name, durationMs, outcome);
      return;
    }
    let byHook = this.#hooks.get(owner);
    if (!byHook) {
      byHook = new Map();
      this.#hooks.set(owner, byHook);
    }
    let series = byHook.get(hook);
    if (!series) {
      const label = ownerMetricLabel(owner);
      series = {
        duration: this.#hookDuration.labels(hook, label),
        error: this.#counters.hookFailures.cell(hook, label, 'error'),
        timeout: this.#counters.hookFailures.cell(hook, label, 'timeout'),
      };
      byHook.set(hook, series);
    }
    record(series, durationMs, outcome);
  };

  /** One run of a gateway hook (`gateway_event` on the bus) on one event. */
  #observeGatewayHook(handler: string, durationMs: number, outcome: HookCallbackOutcome): void {
    let series = this.#gatewayHooks.get(handler);
    if (!series) {
      series = {
        duration: this.#gatewayHookDuration.labels(handler),
        error: this.#counters.gatewayHookFailures.cell(handler, 'error'),
        timeout: this.#counters.gatewayHookFailures.cell(handler, 'timeout'),
      };
      this.#gatewayHooks.set(handler, series);
    }
    record(series, durationMs, outcome);
  }

  /** For ModelClient options: every HTTP attempt. */
  readonly observeModelRequest: ModelRequestObserver = (durationMs, outcome, errorKind, status) => {
    this.#model[outcome].observe(durationMs / 1000);
    if (outcome === 'error') this.#modelError(errorKind ?? 'response', status).inc();
  };

  #modelError(kind: ModelErrorKind, status: number): CounterCell {
    const key = `${kind} ${status}`;
    let cell = this.#modelErrors.get(key);
    if (!cell) {
      cell = this.#counters.modelErrors.cell(kind, status > 0 ? String(status) : 'none');
      this.#modelErrors.set(key, cell);
    }
    return cell;
  }

  /** Samples platform states for reconnects (every PLATFORM_SAMPLE_INTERVAL_MS until stopped). */
  startSampling(intervalMs = PLATFORM_SAMPLE_INTERVAL_MS): void {
    this.stopSampling();
    this.samplePlatforms();
    this.#sampler = setInterval(() => this.samplePlatforms(), intervalMs);
    this.#sampler.unref();
  }

  stopSampling(): void {
    if (this.#sampler) clearInterval(this.#sampler);
    this.#sampler = null;
  }

  /** Counts the platforms that are connected again since the last sample. */
  samplePlatforms(): void {
    for (const [name, state] of Object.entries(this.#sources?.platformStates() ?? {})) {
      if (this.#reconnects.observe(name, state)) this.platform(name).reconnects.inc();
    }
  }

  /** The Prometheus text exposition of every metric. */
  async scrape(): Promise<string> {
    this.samplePlatforms();
    return this.registry.metrics();
  }

  /** `text/plain; version=0.0.4; charset=utf-8` */
  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * `plugin:NAME`; a shell hook by its program only (`shell:~/hooks/guard.sh`), so arguments
 * written in config.yaml (tokens, say) never reach a scrape.
 */
export function ownerMetricLabel(owner: HookOwner): string {
  const name = owner.source === 'shell' ? (owner.name.trim().split(/\s+/)[0] ?? '') : owner.name;
  return `${owner.source}:${name}`;
}

function record(series: HookSeries, durationMs: number, outcome: HookCallbackOutcome): void {
  series.duration.observe(durationMs / 1000);
  if (outcome === 'error') series.error.inc();
  else if (outcome === 'timeout') series.timeout.inc();
}
