/** Stage 2, the `pre_gateway_dispatch` hook: skip, rewrite the text, or let the message through. */
import type { HookBus } from '@hermes/plugins';
import type { DispatchHandles, MessageEvent } from '@hermes/protocol';

export interface DispatchPorts {
  /** `count`, when the bus has it: without a `pre_gateway_dispatch` callback no payload is built */
  hooks: Pick<HookBus, 'invoke'> & Partial<Pick<HookBus, 'count'>>;
  /** what the hook's payload exposes as `gateway` and `sessionStore`: narrow handles, never the live objects */
  handles: () => DispatchHandles;
}

export type DispatchOutcome = { kind: 'skipped'; reason: 'hook_skip' } | { kind: 'pass'; event: MessageEvent };

/** Whether the hook has a callback (a bus that cannot count: assumed so). */
export const dispatchHeard = (ports: DispatchPorts): boolean => ports.hooks.count?.('pre_gateway_dispatch') !== 0;

export async function dispatchHook(ports: DispatchPorts, event: MessageEvent): Promise<DispatchOutcome> {
  const decision = await ports.hooks.invoke('pre_gateway_dispatch', { event, ...ports.handles() });
  if (decision.action === 'skip') return { kind: 'skipped', reason: 'hook_skip' };
  if (decision.action === 'rewrite') return { kind: 'pass', event: { ...event, text: decision.text } };
  return { kind: 'pass', event };
}
