/**
 * The one hook dispatcher. Plugin callbacks, shell hooks and gateway hooks all register here.
 * Callbacks run in registration order, sync or async, each awaited with a timeout; a throwing or
 * hanging callback is logged with its owner and hook name and skipped. Results are combined per
 * the hook's kind from the table in @hermes/protocol.
 */
import {
  type BlockDecision,
  type DispatchDecision,
  HOOKS,
  type HookCallback,
  type HookInvoker,
  type HookName,
  type HookOutcome,
  type HookPayloads,
  type Logger,
  silentLogger,
} from '@hermes/protocol';
import { parseHookResult } from './combine.js';
import { type HookOwner, ownerLabel } from './hook-owner.js';
import { pluginScope } from './plugin-faults.js';

export const HOOK_TIMEOUT_DEFAULT_MS = 10_000;

/** How an awaited callback ended: returned, threw (or rejected), or outlived its timeout. */
export type HookCallbackOutcome = 'ok' | 'error' | 'timeout';

/**
 * Told about every callback the bus ran (metrics): the hook, its owner, how long the bus waited
 * for it (the timeout for one that timed out) and how it ended. Called synchronously; must not throw.
 */
export type HookCallbackObserver = (
  hook: HookName,
  owner: HookOwner,
  durationMs: number,
  outcome: HookCallbackOutcome,
) => void;

export interface HookBusOptions {
  logger?: Logger;
  /** per-callback timeout unless a registration sets its own */
  timeoutMs?: number;
  /** sees each callback's duration and outcome; absent, nothing is timed */
  observer?: HookCallbackObserver;
  /** told of each callback that threw or rejected (plugin fault counting); must not throw */
  onError?: (owner: HookOwner, hook: HookName, error: unknown) => void;
}

export interface RegisterOptions<K extends HookName = HookName> {
  timeoutMs?: number;
  /** the callback runs only for the payloads this accepts; any other is no call (not timed, not counted) */
  when?: (payload: HookPayloads[K]) => boolean;
  /** what one call is about, named in its log lines (`on agent:end`) */
  subject?: (payload: HookPayloads[K]) => string;
}

interface Registration {
  readonly hook: HookName;
  readonly callback: (payload: never) => unknown;
  readonly owner: HookOwner;
  readonly timeoutMs: number;
  readonly when: ((payload: never) => boolean) | undefined;
  readonly subject: ((payload: never) => string) | undefined;
}

export interface HookRegistrationInfo {
  hook: HookName;
  owner: HookOwner;
  timeoutMs: number;
}

const SKIPPED: unique symbol = Symbol('skipped');

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

export class HookBus implements HookInvoker {
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #observer: HookCallbackObserver | undefined;
  readonly #onError: HookBusOptions['onError'];
  // copy-on-write arrays: registering during a dispatch never disturbs it
  readonly #byHook = new Map<HookName, readonly Registration[]>();

  constructor(options: HookBusOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#timeoutMs = options.timeoutMs ?? HOOK_TIMEOUT_DEFAULT_MS;
    this.#observer = options.observer;
    this.#onError = options.onError;
  }

  /** Adds a callback for `hook`; returns a function that removes exactly this registration. */
  register<K extends HookName>(
    hook: K,
    callback: HookCallback<K>,
    owner: HookOwner,
    options: RegisterOptions<K> = {},
  ): () => void {
    if (!Object.hasOwn(HOOKS, hook)) throw new TypeError(`Unknown hook "${String(hook)}"`);
    if (typeof callback !== 'function')
      throw new TypeError(`Hook "${hook}" callback from ${ownerLabel(owner)} is not a function`);
    const registration: Registration = {
      hook,
      callback: callback as (payload: never) => unknown,
      owner,
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      when: options.when as ((payload: never) => boolean) | undefined,
      subject: options.subject as ((payload: never) => string) | undefined,
    };
    this.#byHook.set(hook, [...(this.#byHook.get(hook) ?? []), registration]);
    return () => {
      const current = this.#byHook.get(hook) ?? [];
      const next = current.filter((r) => r !== registration);
      if (next.length === 0) this.#byHook.delete(hook);
      else this.#byHook.set(hook, next);
    };
  }

  /** Removes every callback of one owner (a plugin turned off after repeated faults); returns how many. */
  removeOwner(owner: HookOwner): number {
    let removed = 0;
    for (const [hook, list] of this.#byHook) {
      const next = list.filter((r) => r.owner.source !== owner.source || r.owner.name !== owner.name);
      removed += list.length - next.length;
      if (next.length === 0) this.#byHook.delete(hook);
      else if (next.length !== list.length) this.#byHook.set(hook, next);
    }
    return removed;
  }

  /** Number of callbacks for one hook, or for all hooks. */
  count(hook?: HookName): number {
    if (hook) return this.#byHook.get(hook)?.length ?? 0;
    let total = 0;
    for (const list of this.#byHook.values()) total += list.length;
    return total;
  }

  /** Every registration, in dispatch order per hook (for listings). */
  registrations(): HookRegistrationInfo[] {
    const out: HookRegistrationInfo[] = [];
    for (const list of this.#byHook.values()) {
      for (const r of list) out.push({ hook: r.hook, owner: r.owner, timeoutMs: r.timeoutMs });
    }
    return out;
  }

  /** Fires `hook` and combines the callbacks' results per its kind. Never throws. */
  async invoke<K extends HookName>(hook: K, payload: HookPayloads[K]): Promise<HookOutcome<K>> {
    const list = this.#byHook.get(hook);
    const kind = HOOKS[hook].kind;
    if (list === undefined) return emptyOutcome(kind) as HookOutcome<K>;

    let block: BlockDecision | null = null;
    let transformed: string | null = null;
    let dispatch: DispatchDecision | null = null;
    let contexts: string[] | null = null;

    for (const registration of list) {
      if (registration.when && !this.#accepts(registration, payload)) continue;
      const value = await this.#call(registration, payload);
      if (value === SKIPPED) continue;
      const source = ownerLabel(registration.owner);
      switch (kind) {
        case 'gate':
          if (block === null) block = parseHookResult('gate', value, source);
          break;
        case 'transform':
          if (transformed === null) transformed = parseHookResult('transform', value, source);
          break;
        case 'dispatch':
          if (dispatch === null) dispatch = parseHookResult('dispatch', value, source);
          break;
        case 'inject': {
          const context = parseHookResult('inject', value, source);
          if (context !== null) {
            contexts = contexts ?? [];
            contexts.push(context);
          }
          break;
        }
        case 'observe':
          break;
      }
    }

    switch (kind) {
      case 'gate':
        return block as HookOutcome<K>;
      case 'transform':
        return transformed as HookOutcome<K>;
      case 'dispatch':
        return (dispatch ?? { action: 'allow' }) as HookOutcome<K>;
      case 'inject':
        return (contexts === null ? null : contexts.join('\n\n')) as HookOutcome<K>;
      case 'observe':
        return undefined as HookOutcome<K>;
    }
  }

  async #call(registration: Registration, payload: unknown): Promise<unknown> {
    const started = this.#observer ? performance.now() : 0;
    let result: unknown;
    try {
      const callback = registration.callback as (p: unknown) => unknown;
      // a plugin's callback runs in its scope: errors it leaves behind (timers, lost promises) are traced to it
      result =
        registration.owner.source === 'plugin' && registration.owner.scoped !== false
          ? pluginScope.run(registration.owner.name, callback, payload)
          : callback(payload);
    } catch (err) {
      this.#fail(registration, payload, err);
      this.#observe(registration, started, 'error');
      return SKIPPED;
    }
    if (!isThenable(result)) {
      this.#observe(registration, started, 'ok');
      return result;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof SKIPPED>((resolve) => {
      timer = setTimeout(() => {
        this.#logger.warn(
          { hook: registration.hook, owner: ownerLabel(registration.owner), timeoutMs: registration.timeoutMs },
          `${this.#label(registration, payload)} timed out after ${registration.timeoutMs} ms; skipped`,
        );
        this.#observe(registration, started, 'timeout');
        resolve(SKIPPED);
      }, registration.timeoutMs);
    });
    try {
      const value = await Promise.race([Promise.resolve(result), timeout]);
      if (value !== SKIPPED) this.#observe(registration, started, 'ok');
      return value;
    } catch (err) {
      this.#fail(registration, payload, err);
      this.#observe(registration, started, 'error');
      return SKIPPED;
    } finally {
      clearTimeout(timer);
    }
  }

  #observe(registration: Registration, started: number, outcome: HookCallbackOutcome): void {
    this.#observer?.(registration.hook, registration.owner, performance.now() - started, outcome);
  }

  /** Whether a registration's `when` takes the payload; one that throws counts as the callback failing. */
  #accepts(registration: Registration, payload: unknown): boolean {
    try {
      return (registration.when as (p: unknown) => boolean)(payload);
    } catch (err) {
      this.#fail(registration, payload, err);
      return false;
    }
  }

  /** "hook gateway_event callback of gateway:NAME on agent:end": how log lines name one call. */
  #label(registration: Registration, payload: unknown): string {
    let subject = '';
    try {
      if (registration.subject) subject = ` on ${(registration.subject as (p: unknown) => string)(payload)}`;
    } catch {
      // a label is a nicety: without it the line still names the hook and owner
    }
    return `hook ${registration.hook} callback of ${ownerLabel(registration.owner)}${subject}`;
  }

  #fail(registration: Registration, payload: unknown, err: unknown): void {
    try {
      this.#onError?.(registration.owner, registration.hook, err);
    } catch {
      // an observer must not break dispatch
    }
    this.#logger.warn(
      { hook: registration.hook, owner: ownerLabel(registration.owner), err },
      `${this.#label(registration, payload)} failed: ${err instanceof Error ? err.message : String(err)}; skipped`,
    );
  }
}

function emptyOutcome(kind: (typeof HOOKS)[HookName]['kind']): unknown {
  switch (kind) {
    case 'dispatch':
      return { action: 'allow' };
    case 'observe':
      return undefined;
    default:
      return null;
  }
}
