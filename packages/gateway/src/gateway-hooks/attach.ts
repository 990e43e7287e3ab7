/** Subscribes loaded gateway hooks to the gateway's events, each with its own API object. */
import type { GatewayHookApi } from '@hermes/protocol';
import type { GatewayEvents } from '../gateway-events.js';
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
