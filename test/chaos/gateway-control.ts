// The gateway under test, run the way an operator runs it: `hermes gateway start` (a detached
// `hermes gateway run`), `restart`, `stop`, and signals to the pid in HERMES_HOME/gateway.lock.
// Also the process census: every live process whose environment names this HERMES_HOME.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHermes } from '../helpers/run-hermes.js';

/** how long a CLI start/restart/stop may take on a loaded 2-core machine */
const CLI_TIMEOUT_MS = 120_000;

export interface HermesProcess {
  pid: number;
  cmdline: string;
}

/** True while `pid` is a live process (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every live process (zombies excluded) whose environment has HERMES_HOME=`home`. */
export function processesOf(home: string): HermesProcess[] {
  const wanted = `HERMES_HOME=${home}`;
  const found: HermesProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.split('\0').includes(wanted) || !alive(pid)) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue;
    }
    found.push({ pid, cmdline });
  }
  return found;
}

/** The `hermes gateway run` processes of `home`. */
export function gatewayProcesses(home: string): HermesProcess[] {
  return processesOf(home).filter((p) => /\bgateway run\b/.test(p.cmdline));
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the run and the faults drive: one gateway (GatewayControl) or a cluster of them (cluster.ts). */
export interface GatewayTarget {
  /** the most `hermes gateway run` processes seen at once for one HERMES_HOME (sampled) */
  readonly maxConcurrent: number;
  pid(): number | undefined;
  /** where webhooks and API clients go (cluster: the live instances in turn, as a load balancer) */
  url(): string | undefined;
  sampleProcesses(everyMs?: number): void;
  stopSampling(): void;
  /** starts what is not running */
  start(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** the gateway (cluster: one instance, drawn from the seed) gets `signal`; resolves with its pid */
  signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<number>;
  /** cluster: every running instance gets `signal` */
  signalEvery?(signal: 'SIGKILL' | 'SIGTERM'): Promise<number[]>;
  killAll(): number[];
}

export class GatewayControl implements GatewayTarget {
  readonly #home: string;
  readonly #env: Record<string, string>;
  /** how many `hermes gateway run` processes were seen at once, at most (sampled) */
  maxConcurrent = 0;
  #sampler: NodeJS.Timeout | undefined;

  constructor(home: string, env: Record<string, string>) {
    this.#home = home;
    this.#env = env;
  }

  /** The pid in gateway.lock, when its process is alive. */
  pid(): number | undefined {
    try {
      const lock = JSON.parse(readFileSync(join(this.#home, 'gateway.lock'), 'utf8')) as { pid?: unknown };
      return typeof lock.pid === 'number' && alive(lock.pid) ? lock.pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** The base URL in gateway.lock, when its process is alive (where webhooks and API clients go). */
  url(): string | undefined {
    try {
      const lock = JSON.parse(readFileSync(join(this.#home, 'gateway.lock'), 'utf8')) as {
        pid?: unknown;
        url?: unknown;
      };
      return typeof lock.pid === 'number' && typeof lock.url === 'string' && alive(lock.pid) ? lock.url : undefined;
    } catch {
      return undefined;
    }
  }

  /** Samples the number of gateway processes of this home every `everyMs` (for `maxConcurrent`). */
  sampleProcesses(everyMs = 1_000): void {
    this.#sampler = setInterval(() => {
      this.maxConcurrent = Math.max(this.maxConcurrent, gatewayProcesses(this.#home).length);
    }, everyMs);
  }

  stopSampling(): void {
    clearInterval(this.#sampler);
  }

  async #cli(args: string[]): Promise<void> {
    const result = await runHermes(args, { env: this.#env, timeoutMs: CLI_TIMEOUT_MS });
    if (result.code !== 0) {
      throw new Error(`hermes ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
    }
  }

  /** `hermes gateway start`: returns once /health answers. */
  start(): Promise<void> {
    return this.#cli(['gateway', 'start']);
  }

  /** `hermes gateway restart`: drain, stop, start again. */
  restart(): Promise<void> {
    return this.#cli(['gateway', 'restart']);
  }

  /** `hermes gateway stop`: drain, then SIGKILL after the grace period. */
  stop(): Promise<void> {
    return this.#cli(['gateway', 'stop']);
  }

  /** Sends `signal` to the running gateway and waits until its process is gone. */
  async signal(signal: 'SIGKILL' | 'SIGTERM', timeoutMs = 60_000): Promise<number> {
    const pid = this.pid();
    if (pid === undefined) throw new Error('no gateway is running');
    process.kill(pid, signal);
    await until(`gateway ${pid} to exit after ${signal}`, () => !alive(pid), timeoutMs);
    return pid;
  }

  /** Last resort after a failed run: SIGKILL whatever still runs for this home. */
  killAll(): number[] {
    const pids = processesOf(this.#home).map((p) => p.pid);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    return pids;
  }
}
