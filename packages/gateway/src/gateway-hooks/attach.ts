/** Subscribes gateway hooks to the gateway's events: in-process (tests, `hermes hooks test`) or in one worker thread (the gateway). */
import type { GatewayHookApi } from '@hermes/protocol';
import { type HookHost, hookApi } from './api.js';
import type { GatewayHookSpec } from './discover.js';
import type { GatewayEvents } from './gateway-events.js';
import { GatewayHookWorker, type HookWorkerOptions } from './hook-worker-host.js';
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

/** Gateway hooks running in their worker thread. */
export interface GatewayHookThreads {
  worker: GatewayHookWorker;
  /** unsubscribes and stops the worker */
  stop(): Promise<void>;
}

/**
 * Subscribes each hook to the gateway's events, run in the gateway hooks' worker thread (every
 * handler is imported there). The worker starts with the first event a hook is subscribed to
 * (`gateway:startup` once the platforms have started; `agent:end` with the first answer), not
 * before: until then the gateway holds no second isolate. Nothing waits for the worker: events
 * that fire before it is ready wait in its queue.
 */
export function attachGatewayHookThreads(
  events: GatewayEvents,
  specs: readonly GatewayHookSpec[],
  options: Omit<HookWorkerOptions, 'apiFor' | 'home' | 'trusted'> & { host: HookHost },
): GatewayHookThreads {
  const { host, ...rest } = options;
  for (const spec of specs) for (const warning of spec.warnings) options.logger.warn({ hook: spec.name }, warning);
  const apis = new Map(specs.map((s) => [s.name, hookApi(host, s.name)]));
  const worker = new GatewayHookWorker(specs, {
    ...rest,
    home: host.home,
    trusted: { ...host.trusted },
    apiFor: (name) => apis.get(name) ?? hookApi(host, name),
  });
  const offs = specs.map((spec) =>
    events.on(spec.events, (type, context) => worker.run(spec.name, type, context), spec.name),
  );
  return {
    worker,
    async stop() {
      for (const off of offs) off();
      await worker.stop();
    },
  };
}
