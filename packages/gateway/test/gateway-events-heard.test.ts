// GatewayEvents.heard(): whether an emit reaches a handler, so the turn stage builds an agent:* payload
// only then (turn.ts); a handler subscribed later is heard from its subscription on.
import { HookBus } from '@hermes/plugins';
import { gatewayEventExample } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { GatewayEvents } from '../src/gateway-hooks/gateway-events.js';

describe('gateway events heard', () => {
  it('false with no handler, true while one is subscribed, false again after it leaves', async () => {
    const events = new GatewayEvents(new HookBus());
    expect(events.heard()).toBe(false);
    const seen: string[] = [];
    const off = events.on('agent:*', (type) => {
      seen.push(type);
    });
    expect(events.heard()).toBe(true);
    events.emit('agent:end', gatewayEventExample('agent:end'));
    await waitFor(() => seen.length === 1, { what: 'agent:end handled' });
    off();
    expect(events.heard()).toBe(false);
    expect(seen).toEqual(['agent:end']);
  });
});
