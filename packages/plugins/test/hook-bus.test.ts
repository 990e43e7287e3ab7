import { HOOK_NAMES, HOOKS, type Logger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { HookBus } from '../src/index.js';

const owner = (name: string) => ({ source: 'test' as const, name });

function recordingLogger(): Logger & { lines: { obj: unknown; msg: string | undefined }[] } {
  const lines: { obj: unknown; msg: string | undefined }[] = [];
  const log = (obj: unknown, msg?: string) => {
    lines.push({ obj, msg: typeof obj === 'string' ? obj : msg });
  };
  const logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => logger, lines };
  return logger;
}

const toolPayload = { toolName: 'terminal', args: { command: 'ls' }, taskId: '', sessionId: 's', toolCallId: 'c' };
const llmPayload = {
  sessionId: 's',
  userMessage: 'hi',
  conversationHistory: [],
  isFirstTurn: true,
  model: 'm',
  platform: 'cli',
};

describe('hook table', () => {
  it('gives every hook a kind, a description and an example with every documented field', () => {
    expect(HOOK_NAMES.length).toBe(17);
    for (const name of HOOK_NAMES) {
      const spec = HOOKS[name];
      expect(['observe', 'gate', 'transform', 'inject', 'dispatch']).toContain(spec.kind);
      expect(Object.keys(spec.example).sort()).toEqual(Object.keys(spec.fields).sort());
    }
  });
});

describe('HookBus', () => {
  it('awaits sync and async callbacks in registration order', async () => {
    const bus = new HookBus();
    const order: string[] = [];
    bus.register('post_llm_call', () => void order.push('a'), owner('a'));
    bus.register(
      'post_llm_call',
      async () => {
        await new Promise((r) => setTimeout(r, 20));
        order.push('b');
      },
      owner('b'),
    );
    bus.register('post_llm_call', () => void order.push('c'), owner('c'));
    await bus.invoke('post_llm_call', { ...llmPayload, assistantResponse: 'x' });
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('pre_tool_call: first block wins, both shapes, non-blocks ignored, all callbacks still run', async () => {
    const bus = new HookBus();
    const seen: string[] = [];
    bus.register('pre_tool_call', () => ({ action: 'blocked', message: 'typo' }) as never, owner('typo'));
    bus.register(
      'pre_tool_call',
      () => {
        seen.push('claude');
        return { decision: 'block', reason: 'claude-style' } as const;
      },
      owner('claude'),
    );
    bus.register(
      'pre_tool_call',
      () => {
        seen.push('canonical');
        return { action: 'block', message: 'canonical' } as const;
      },
      owner('canonical'),
    );
    expect(await bus.invoke('pre_tool_call', toolPayload)).toEqual({ action: 'block', message: 'claude-style' });
    expect(seen).toEqual(['claude', 'canonical']);
  });

  it('pre_tool_call with observers only gives null', async () => {
    const bus = new HookBus();
    bus.register('pre_tool_call', () => undefined, owner('o'));
    expect(await bus.invoke('pre_tool_call', toolPayload)).toBeNull();
  });

  it('pre_llm_call joins contexts with blank lines in registration order, both shapes', async () => {
    const bus = new HookBus();
    bus.register('pre_llm_call', () => ({ context: 'first' }), owner('a'));
    bus.register('pre_llm_call', () => null, owner('b'));
    bus.register('pre_llm_call', async () => 'second', owner('c'));
    bus.register('pre_llm_call', () => '   ', owner('blank'));
    expect(await bus.invoke('pre_llm_call', llmPayload)).toBe('first\n\nsecond');
  });

  it('transform: first string wins', async () => {
    const bus = new HookBus();
    bus.register('transform_tool_result', () => undefined, owner('a'));
    bus.register('transform_tool_result', () => 'one', owner('b'));
    bus.register('transform_tool_result', () => 'two', owner('c'));
    const payload = { toolName: 't', arguments: {}, result: 'r', taskId: null, sessionId: 's' };
    expect(await bus.invoke('transform_tool_result', payload)).toBe('one');
  });

  it('pre_gateway_dispatch: first recognised action wins, default allow', async () => {
    const bus = new HookBus();
    const event = HOOKS.pre_gateway_dispatch.example.event;
    const payload = { event, gateway: null, sessionStore: null } as never;
    expect(await bus.invoke('pre_gateway_dispatch', payload)).toEqual({ action: 'allow' });
    bus.register('pre_gateway_dispatch', () => ({ action: 'bogus' }) as never, owner('a'));
    bus.register('pre_gateway_dispatch', () => ({ action: 'rewrite', text: 'new' }) as const, owner('b'));
    bus.register('pre_gateway_dispatch', () => ({ action: 'skip', reason: 'x' }) as const, owner('c'));
    expect(await bus.invoke('pre_gateway_dispatch', payload)).toEqual({ action: 'rewrite', text: 'new' });
  });

  it('isolates a throwing callback and logs its owner and hook', async () => {
    const logger = recordingLogger();
    const bus = new HookBus({ logger });
    bus.register(
      'pre_llm_call',
      () => {
        throw new Error('boom');
      },
      owner('thrower'),
    );
    bus.register('pre_llm_call', async () => Promise.reject(new Error('async boom')), owner('rejecter'));
    bus.register('pre_llm_call', () => 'still here', owner('ok'));
    expect(await bus.invoke('pre_llm_call', llmPayload)).toBe('still here');
    const messages = logger.lines.map((l) => l.msg ?? '');
    expect(messages.some((m) => m.includes('test:thrower') && m.includes('pre_llm_call') && m.includes('boom'))).toBe(
      true,
    );
    expect(messages.some((m) => m.includes('test:rejecter') && m.includes('async boom'))).toBe(true);
  });

  it('skips a hanging callback after its timeout and carries on', async () => {
    const logger = recordingLogger();
    const bus = new HookBus({ logger, timeoutMs: 50 });
    bus.register('pre_llm_call', () => new Promise<string>(() => {}), owner('hang'));
    bus.register('pre_llm_call', () => 'after', owner('ok'));
    const started = Date.now();
    expect(await bus.invoke('pre_llm_call', llmPayload)).toBe('after');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(logger.lines.some((l) => (l.msg ?? '').includes('test:hang') && (l.msg ?? '').includes('timed out'))).toBe(
      true,
    );
  });

  it("a registration's when: other payloads are no call (not run, not timed); subject names a call in its log lines", async () => {
    const logger = recordingLogger();
    const observed: string[] = [];
    const bus = new HookBus({
      logger,
      observer: (_hook, o, _ms, outcome) => void observed.push(`${o.name} ${outcome}`),
    });
    const ran: string[] = [];
    bus.register(
      'gateway_event',
      ({ event }) => {
        ran.push(event);
        throw new Error('boom');
      },
      { source: 'gateway', name: 'ends' },
      { when: ({ event }) => event === 'agent:end', subject: ({ event }) => event },
    );
    await bus.invoke('gateway_event', { event: 'agent:start', context: {} });
    await bus.invoke('gateway_event', { event: 'agent:end', context: {} });
    expect(ran).toEqual(['agent:end']);
    expect(observed).toEqual(['ends error']);
    expect(logger.lines.map((l) => l.msg)).toEqual([
      'hook gateway_event callback of gateway:ends on agent:end failed: boom; skipped',
    ]);
  });

  it('unregister removes exactly that registration', async () => {
    const bus = new HookBus();
    const off = bus.register('pre_llm_call', () => 'a', owner('a'));
    bus.register('pre_llm_call', () => 'b', owner('b'));
    expect(bus.count('pre_llm_call')).toBe(2);
    off();
    expect(bus.count()).toBe(1);
    expect(await bus.invoke('pre_llm_call', llmPayload)).toBe('b');
  });

  it('rejects unknown hook names and non-functions at registration', () => {
    const bus = new HookBus();
    const untyped = bus.register.bind(bus) as (hook: string, cb: unknown, o: unknown) => void;
    expect(() => untyped('nope', () => {}, owner('x'))).toThrow(/Unknown hook "nope"/);
    expect(() => untyped('pre_llm_call', 42, owner('x'))).toThrow(/not a function/);
  });
});
