// GatewayEvents.emit is typed from the gateway-event table: a wrong name or context does not compile
// (the @ts-expect-error lines are checked by `npx tsc -p test/tsconfig.json --noEmit`).
import { HookBus } from '@hermes/plugins';
import { gatewayEventExample } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { GatewayEvents } from '../src/gateway-hooks/gateway-events.js';

describe('typed emit', () => {
  it('accepts the table contexts and rejects others at compile time', async () => {
    const events = new GatewayEvents(new HookBus());
    const seen: [string, unknown][] = [];
    events.on('*', (type, context) => void seen.push([type, context]));
    events.emit('command:new', { platform: 'telegram', user_id: '1', command: 'new', args: '' });
    // @ts-expect-error session:reset carries platform, user_id and session_key
    events.emit('session:reset', { platform: 'telegram' });
    // @ts-expect-error not a gateway event
    events.emit('agent:ends', gatewayEventExample('agent:end'));
    // @ts-expect-error a command context is not a gateway:startup context
    events.emit('gateway:startup', gatewayEventExample('command:new'));
    await new Promise((r) => setImmediate(r));
    expect(seen.map(([type]) => type)).toEqual(['command:new', 'session:reset', 'agent:ends', 'gateway:startup']);
  });
});
