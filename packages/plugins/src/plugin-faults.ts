/**
 * Faults of plugin code outside the hook bus's own try/catch: an uncaught exception or an
 * unhandled rejection (a timer, a promise nobody awaited, a refused process.exit) is traced to
 * its plugin (the AsyncLocalStorage scope set around register() and hook callbacks, else a stack
 * frame under the plugin's folder), logged with the plugin's name, and counted with the plugin's
 * hook failures. A plugin with `limit` faults within `windowMs` has its hooks turned off, with
 * one log line.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sep } from 'node:path';
import type { Logger } from '@hermes/protocol';

/** The plugin whose code runs: set around register() and each of its hook callbacks. */
export const pluginScope = new AsyncLocalStorage<string>();

export interface PluginFaultOptions {
  logger: Logger;
  /** turns off every hook callback of the plugin (HookBus.removeOwner) */
  disableHooks(plugin: string): void;
  /** faults within the window that turn a plugin's hooks off (default 5 in 10 minutes) */
  limit?: number;
  windowMs?: number;
  now?: () => number;
}

export class PluginFaults {
  readonly #o: PluginFaultOptions;
  readonly #dirs = new Map<string, string[]>();
  readonly #times = new Map<string, number[]>();
  readonly #disabled = new Set<string>();

  constructor(options: PluginFaultOptions) {
    this.#o = options;
  }

  /** Remembers a plugin's folder (a bundled plugin's build may be a second one), for tracing stack frames to it. */
  track(plugin: string, dir: string): void {
    const dirs = this.#dirs.get(plugin) ?? [];
    dirs.push(dir.endsWith(sep) ? dir : dir + sep);
    this.#dirs.set(plugin, dirs);
  }

  /** The plugins whose hooks were turned off. */
  get disabled(): readonly string[] {
    return [...this.#disabled];
  }

  /** The plugin an error comes from: the running plugin's scope, else the first stack frame in a plugin's folder. */
  attribute(error: unknown): string | null {
    const scoped = pluginScope.getStore();
    if (scoped !== undefined) return scoped;
    const stack = error instanceof Error ? (error.stack ?? '') : '';
    let best: { plugin: string; at: number } | null = null;
    for (const [plugin, dirs] of this.#dirs) {
      for (const dir of dirs) {
        const at = stack.indexOf(dir);
        if (at >= 0 && (best === null || at < best.at)) best = { plugin, at };
      }
    }
    return best?.plugin ?? null;
  }

  /** For installProcessGuards: takes an uncaught error it can trace to a plugin. */
  readonly claim = (error: unknown, kind: 'exception' | 'rejection'): boolean => {
    const plugin = this.attribute(error);
    if (plugin === null) return false;
    const what = kind === 'exception' ? 'uncaught exception' : 'unhandled rejection';
    this.record(plugin, `${what}: ${error instanceof Error ? error.message : String(error)}`, { error });
    return true;
  };

  /** Logs one fault of `plugin` and counts it; at the limit its hooks are turned off. */
  record(plugin: string, what: string, options: { error?: unknown; logged?: boolean } = {}): void {
    if (!options.logged) this.#o.logger.error({ plugin, err: options.error }, `plugin ${plugin} fault: ${what}`);
    const now = (this.#o.now ?? Date.now)();
    const windowMs = this.#o.windowMs ?? 10 * 60_000;
    const recent = (this.#times.get(plugin) ?? []).filter((t) => now - t < windowMs);
    recent.push(now);
    this.#times.set(plugin, recent);
    const limit = this.#o.limit ?? 5;
    if (recent.length < limit || this.#disabled.has(plugin)) return;
    this.#disabled.add(plugin);
    this.#o.disableHooks(plugin);
    this.#o.logger.error(
      { plugin, faults: recent.length },
      `plugin ${plugin}: hooks disabled after ${recent.length} faults within ${Math.round(windowMs / 60_000)} min; restart the gateway to turn them on again`,
    );
  }
}
