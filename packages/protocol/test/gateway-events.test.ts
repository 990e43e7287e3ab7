// The gateway-event table: names, prefixes, wildcards and examples all derive from it.
import { describe, expect, it } from 'vitest';
import {
  GATEWAY_EVENT_EXAMPLES,
  GATEWAY_EVENT_PREFIXES,
  GATEWAY_EVENT_WILDCARDS,
  GATEWAY_EVENTS,
  type GatewayEventContext,
  type GatewayEventType,
  gatewayEventExample,
  gatewayEventMatches,
  isGatewayEventPattern,
  isGatewayEventType,
} from '../src/index.js';

describe('the gateway-event table', () => {
  it('derives the event list, the prefixes and the wildcards, in the docs order', () => {
    expect(GATEWAY_EVENTS).toEqual([
      'gateway:startup',
      'session:start',
      'session:end',
      'session:reset',
      'agent:start',
      'agent:step',
      'agent:end',
      'cron:start',
      'cron:end',
    ]);
    expect(GATEWAY_EVENT_PREFIXES).toEqual(['gateway', 'session', 'agent', 'cron', 'command']);
    expect(GATEWAY_EVENT_WILDCARDS).toEqual(['gateway:*', 'session:*', 'agent:*', 'cron:*', 'command:*']);
    expect(Object.keys(GATEWAY_EVENT_EXAMPLES)).toEqual([...GATEWAY_EVENTS, 'command']);
  });

  it('knows which names and patterns a gateway fires', () => {
    for (const name of [...GATEWAY_EVENTS, 'command:new', 'command:my-cmd'])
      expect(isGatewayEventType(name)).toBe(true);
    for (const name of ['agent:ends', 'command:', 'command:*', 'gateway:*', 'session', '']) {
      expect(isGatewayEventType(name)).toBe(false);
    }
    for (const p of ['*', 'gateway:*', 'session:*', 'agent:*', 'command:*', 'agent:end', 'command:new']) {
      expect(isGatewayEventPattern(p)).toBe(true);
    }
    for (const p of ['tool:*', 'agent:ends', 'agent', '**']) expect(isGatewayEventPattern(p)).toBe(false);
    expect(gatewayEventMatches('command:*', 'command:new')).toBe(true);
    expect(gatewayEventMatches('agent:*', 'command:new')).toBe(false);
  });

  it('gives a fresh example context per event, the command family with its name', () => {
    expect(gatewayEventExample('command:model')).toEqual({ ...GATEWAY_EVENT_EXAMPLES.command, command: 'model' });
    const step = gatewayEventExample('agent:step');
    step.tool_names.push('mutated');
    expect(GATEWAY_EVENT_EXAMPLES['agent:step'].tool_names).not.toContain('mutated');
  });

  it('types each context from the table (checked by tsc -p test/tsconfig.json)', () => {
    const end: GatewayEventContext<'agent:end'> = gatewayEventExample('agent:end');
    const command: GatewayEventContext<'command:new'> = { platform: 'x', user_id: '1', command: 'new', args: '' };
    // @ts-expect-error agent:end carries a response
    const partial: GatewayEventContext<'agent:end'> = { platform: 'x', user_id: '1', session_id: 's', message: 'm' };
    // @ts-expect-error not a gateway event
    const unknown: GatewayEventType = 'agent:ends';
    expect([end.platform, command.command, partial.platform, unknown]).toHaveLength(4);
  });
});
