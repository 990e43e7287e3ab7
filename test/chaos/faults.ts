// The faults of the chaos run: what each does, the seeded order they come in (every kind at least
// once per round, gateway kills and restarts weighted up), and the log of what was injected.
import type { GatewayTarget } from './gateway-control.js';
import { writeControl } from './home.js';
import type { Outage } from './ledger.js';
import type { ModelChaos } from './model.js';
import type { ChaosPlatform, PlatformName } from './platforms.js';
import type { Rng } from './rng.js';

const PLATFORMS: readonly PlatformName[] = ['telegram', 'discord', 'slack', 'whatsapp', 'signal', 'matrix', 'email'];

/** Gateway.MAX_RESUME_ATTEMPTS: a message cut off this many resumed starts in a row gets an apology */
const MAX_RESUME_ATTEMPTS = 3;

export const FAULT_KINDS = [
  'gateway-kill-9',
  'gateway-crash-loop',
  'gateway-restart',
  'gateway-sigterm',
  ...PLATFORMS.flatMap((p) => [`${p}-429-storm`, `${p}-5xx`, `${p}-drop`] as const),
  'model-429',
  'model-5xx',
  'model-timeout',
  'model-slow',
  'plugin-hook-hang',
  'gateway-hook-throw',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** extra draws per round: the faults that test recovery the hardest come more often */
const WEIGHTED_EXTRA: readonly FaultKind[] = ['gateway-kill-9', 'gateway-kill-9', 'gateway-kill-9', 'gateway-restart'];

export interface InjectedFault {
  kind: FaultKind;
  at: number;
  /** what exactly was done, e.g. '4 × 429 (retry-after 1 s)' */
  detail: string;
  /** how long the injection took (restarts wait for /health) */
  tookMs: number;
}

/** faults per round: a run of at least this many injects every kind */
export const ROUND_SIZE = FAULT_KINDS.length + WEIGHTED_EXTRA.length;

/** The short run of `npm run check` (CHAOS_SHORT=1): small, seeded, with the recovery faults in it. */
export const SHORT_RUN = {
  seed: 34,
  messages: 300,
  faults: 8,
  ratePerS: 10,
  mustInject: ['gateway-kill-9', 'gateway-restart'] as readonly FaultKind[],
} as const;

/**
 * An endless seeded sequence of fault kinds: each round is every kind once plus the weighted
 * extras, shuffled; `only` narrows it to some kinds (to reproduce one fault in isolation);
 * `first.kinds` come within the first `first.within` faults of the first round (shuffled among
 * them), so that a short run injects them whatever the seed.
 */
export function faultSequence(
  rng: Rng,
  only: readonly FaultKind[] = [],
  first: { kinds: readonly FaultKind[]; within: number } = { kinds: [], within: 0 },
): () => FaultKind {
  let round: FaultKind[] = [];
  if (first.kinds.length > 0 && only.length === 0) {
    const rest = [...FAULT_KINDS, ...WEIGHTED_EXTRA];
    for (const kind of first.kinds) rest.splice(rest.indexOf(kind), 1);
    const shuffled = rng.shuffle(rest);
    const head = rng.shuffle([...first.kinds, ...shuffled.splice(0, Math.max(0, first.within - first.kinds.length))]);
    round = [...head, ...shuffled];
  }
  return () => {
    if (round.length === 0) round = rng.shuffle(only.length > 0 ? only : [...FAULT_KINDS, ...WEIGHTED_EXTRA]);
    return round.shift() as FaultKind;
  };
}

/** The kinds named in a comma-separated list (CHAOS_KINDS); an unknown name throws. */
export function parseKinds(list: string | undefined): FaultKind[] {
  const names = (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(FAULT_KINDS as readonly string[]).includes(name)) {
      throw new Error(`CHAOS_KINDS: unknown fault "${name}" (known: ${FAULT_KINDS.join(', ')})`);
    }
  }
  return names as FaultKind[];
}

export interface FaultTargets {
  home: string;
  gateway: GatewayTarget;
  platforms: ReadonlyMap<PlatformName, ChaosPlatform>;
  model: ModelChaos;
  rng: Rng;
  /** offers a message from a spare user whose model requests hang; returns its key */
  offerStuckMessage(): number;
  /** whether the model was asked about message `key` at or after `since` */
  modelAsked(key: number, since: number): boolean;
  /** called just before each kill -9 (the run counts the pushed requests it cuts) */
  beforeKill?(): void;
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`chaos: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Injects faults and keeps the log and the gateway's outages. */
export class FaultInjector {
  readonly injected: InjectedFault[] = [];
  readonly outages: Outage[] = [];
  readonly #t: FaultTargets;
  #control = { hangUntil: 0, throwUntil: 0 };

  constructor(targets: FaultTargets) {
    this.#t = targets;
  }

  #platform(name: PlatformName): ChaosPlatform {
    const platform = this.#t.platforms.get(name);
    if (!platform) throw new Error(`no platform ${name}`);
    return platform;
  }

  /** Takes the gateway down with `down` and brings it back with `up`, recording the outage. */
  async #outage(kind: Outage['kind'], down: () => Promise<unknown>, up: () => Promise<void>): Promise<void> {
    const from = Date.now();
    await down();
    await up();
    this.outages.push({ kind, from, to: Date.now() });
  }

  /** kill -9 of the gateway (cluster mode: of one instance; `every`: of every instance) */
  #kill(every = false): Promise<unknown> {
    this.#t.beforeKill?.();
    const { gateway } = this.#t;
    return every && gateway.signalEvery ? gateway.signalEvery('SIGKILL') : gateway.signal('SIGKILL');
  }

  async inject(kind: FaultKind): Promise<InjectedFault> {
    const { rng, gateway, model, home } = this.#t;
    const at = Date.now();
    let detail: string;
    switch (kind) {
      case 'gateway-kill-9': {
        await this.#outage(
          'kill',
          () => this.#kill(),
          () => gateway.start(),
        );
        detail = 'kill -9, then hermes gateway start';
        break;
      }
      case 'gateway-crash-loop': {
        // a message whose turn never ends, killed with the gateway each time it runs: the original
        // start plus MAX_RESUME_ATTEMPTS resumed ones, after which the next start apologises (in
        // cluster mode every instance is killed: the turn may run on either)
        const key = this.#t.offerStuckMessage();
        let since = Date.now();
        for (let kill = 0; kill <= MAX_RESUME_ATTEMPTS; kill++) {
          await until(`the turn of chaos-m${key} to run`, () => this.#t.modelAsked(key, since), 60_000);
          since = Date.now();
          await this.#outage(
            'kill',
            () => this.#kill(true),
            () => gateway.start(),
          );
        }
        detail = `chaos-m${key} (its model requests hang) cut off by ${MAX_RESUME_ATTEMPTS + 1} kill -9 in a row`;
        break;
      }
      case 'gateway-restart':
        // the CLI drains, stops and starts: the outage spans the whole command
        await this.#outage(
          'graceful',
          async () => {},
          () => gateway.restart(),
        );
        detail = 'hermes gateway restart';
        break;
      case 'gateway-sigterm':
        await this.#outage(
          'graceful',
          () => gateway.signal('SIGTERM'),
          () => gateway.start(),
        );
        detail = 'SIGTERM (drain), then hermes gateway start';
        break;
      case 'model-429':
      case 'model-5xx':
      case 'model-timeout': {
        const count = rng.int(2, 6);
        model.inject(kind, count);
        detail = `next ${count} model requests fail`;
        break;
      }
      case 'model-slow': {
        const seconds = rng.int(3, 6);
        model.inject(kind, seconds);
        detail = `model answers take 0.7-1.4 s for ${seconds} s`;
        break;
      }
      case 'plugin-hook-hang': {
        const ms = rng.int(1_500, 4_000);
        this.#control = { ...this.#control, hangUntil: Date.now() + ms };
        writeControl(home, this.#control);
        detail = `plugin hooks hang for ${ms} ms`;
        break;
      }
      case 'gateway-hook-throw': {
        const ms = rng.int(2_000, 5_000);
        this.#control = { ...this.#control, throwUntil: Date.now() + ms };
        writeControl(home, this.#control);
        detail = `gateway hook throws for ${ms} ms`;
        break;
      }
      default:
        detail = await this.#platformFault(kind);
    }
    const fault = { kind, at, detail, tookMs: Date.now() - at };
    this.injected.push(fault);
    return fault;
  }

  async #platformFault(kind: FaultKind): Promise<string> {
    const [name, ...rest] = kind.split('-');
    const what = rest.join('-');
    const platform = this.#platform(name as PlatformName);
    const { rng } = this.#t;
    if (what === '429-storm') {
      const count = rng.int(2, 4);
      platform.rateLimitStorm(count);
      return `next ${count} sends answer 429`;
    }
    if (what === '5xx') {
      const count = rng.int(1, 2);
      const status = rng.pick([500, 502, 503]);
      platform.serverErrors(count, status);
      return `next ${count} sends answer ${status}`;
    }
    await platform.dropConnection();
    return 'connection dropped';
  }

  /** Ends the hook windows (the run's final, fault-free phase). */
  heal(): void {
    this.#control = { hangUntil: 0, throwUntil: 0 };
    writeControl(this.#t.home, this.#control);
  }

  /** Injected faults per kind. */
  byKind(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const f of this.injected) out[f.kind] = (out[f.kind] ?? 0) + 1;
    return out;
  }
}

/** The fault kinds injected that had no effect (no 429 answered, no hook hung, ...): each must do what it says. */
export function idleFaults(
  injected: Record<string, number>,
  model: ModelChaos,
  effects: { hangs: number; throws: number },
  platforms: readonly ChaosPlatform[],
): [string, number][] {
  const did: Partial<Record<FaultKind, number>> = {
    'model-429': model.served.rateLimited,
    'model-5xx': model.served.serverErrors,
    'model-timeout': model.served.hung,
    'model-slow': model.served.slow,
    'gateway-crash-loop': model.served.stuck,
    'plugin-hook-hang': effects.hangs,
    'gateway-hook-throw': effects.throws,
  };
  for (const p of platforms) {
    did[`${p.name}-429-storm` as FaultKind] = p.failuresAnswered().rateLimited;
    did[`${p.name}-5xx` as FaultKind] = p.failuresAnswered().serverErrors;
  }
  return Object.entries(did).filter(([kind, effect]) => (injected[kind] ?? 0) > 0 && effect === 0) as [
    string,
    number,
  ][];
}
