/** Subscribes gateway hooks to the gateway's events: in-process (tests, `hermes hooks test`) or one worker thread each (the gateway). */
import type { GatewayHookApi } from '@hermes/protocol';
import type { GatewayEvents } from '../gateway-events.js';
import { type HookHost, hookApi } from './api.js';
import type { GatewayHookSpec } from './discover.js';
import { HookThread, type HookThreadOptions } from './hook-thread.js';
import type { LoadedGatewayHook } from './load.js';

/** Attaches every hook (once per event, whatever its patterns overlap); returns the detach function. */
export function attachGatewayHooks(
  events: GatewayEvents,
  hooks: readonly LoadedGatewayHook[],
  apiFor: (hook: LoadedGatewayHook) => GatewayHookApi,
): () => void {
  const offs = hooks.map((hook) => {
    const api = apiFor(hook);
    return events.on(hook.events, (type, context) => hook.handle(type, context, api), hook.name);
  });
  return () => {
    for (const off of offs) off();
  };
}

/** Gateway hooks running in worker threads, one per hook. */
export interface GatewayHookThreads {
  threads: readonly HookThread[];
  /** unsubscribes and stops every worker */
  stop(): Promise<void>;
}

/**
 * Starts one worker thread per hook (its handler is imported there) and subscribes it to the
 * gateway's events. Nothing waits for the workers: events that fire before a worker is ready wait
 * in its queue. One worker per hook, so a hook that crashes, exits or loops stops only itself and
 * every log line names it.
 */
export function attachGatewayHookThreads(
  events: GatewayEvents,
  specs: readonly GatewayHookSpec[],
  options: Omit<HookThreadOptions, 'api'> & { host: HookHost },
): GatewayHookThreads {
  const { host, ...rest } = options;
  const threads = specs.map((spec) => {
    for (const warning of spec.warnings) options.logger.warn({ hook: spec.name }, warning);
    const thread = new HookThread(spec, { ...rest, api: hookApi(host, spec.name) });
    thread.start();
    return thread;
  });
  const offs = threads.map((thread, i) =>
    events.on(specs[i]?.events ?? [], (type, context) => thread.run(type, context), thread.name),
  );
  return {
    threads,
    async stop() {
      for (const off of offs) off();
      await Promise.all(threads.map((t) => t.stop()));
    },
  };
}
