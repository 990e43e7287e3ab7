/** Stage 2, the `pre_gateway_dispatch` hook: skip, rewrite the text, or let the message through. */
import type { HookBus } from '@hermes/plugins';
import type { DispatchHandles, MessageEvent } from '@hermes/protocol';

export interface DispatchPorts {
  hooks: Pick<HookBus, 'invoke'>;
  /** what the hook's payload exposes as `gateway` and `sessionStore`: narrow handles, never the live objects */
  handles: () => DispatchHandles;
}

export type DispatchOutcome = { kind: 'skipped'; reason: 'hook_skip' } | { kind: 'pass'; event: MessageEvent };

export async function dispatchHook(ports: DispatchPorts, event: MessageEvent): Promise<DispatchOutcome> {
  const decision = await ports.hooks.invoke('pre_gateway_dispatch', { event, ...ports.handles() });
  if (decision.action === 'skip') return { kind: 'skipped', reason: 'hook_skip' };
  if (decision.action === 'rewrite') return { kind: 'pass', event: { ...event, text: decision.text } };
  return { kind: 'pass', event };
}
