import { HookBus } from '@hermes/plugins';
import type { ToolDefinition } from '@hermes/protocol';
import { ModelClient, runTurn, type TurnOptions } from '../src/index.js';

export type HookCall = { hook: string; payload: Record<string, unknown> };

/** A bus with a recorder on every hook, so tests can assert order and payloads. */
export function recordingBus(timeoutMs = 10_000): { bus: HookBus; calls: HookCall[] } {
  const bus = new HookBus({ timeoutMs });
  const calls: HookCall[] = [];
  return { bus, calls };
}

export function recordAll(bus: HookBus, calls: HookCall[], hooks: readonly string[]): void {
  for (const hook of hooks) {
    bus.register(
      hook as 'post_llm_call',
      (payload) => {
        calls.push({ hook, payload: structuredClone(payload) as unknown as Record<string, unknown> });
      },
      { source: 'test', name: 'recorder' },
    );
  }
}

export function client(url: string, bus: HookBus, maxRetries = 2, waits: number[] = []): ModelClient {
  return new ModelClient({
    baseUrl: url,
    apiKey: 'sk-test-key-0123456789abcdef',
    timeoutMs: 5_000,
    maxRetries,
    hooks: bus,
    sleep: async (ms, signal) => {
      waits.push(ms);
      return !signal?.aborted;
    },
  });
}

export const echoTool: ToolDefinition = {
  name: 'echo',
  toolset: 'test',
  schema: {
    name: 'echo',
    description: 'Echo the text back',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  handler: (args) => ({ echoed: args.text }),
};

export function turn(
  overrides: Partial<TurnOptions> & Pick<TurnOptions, 'client' | 'hooks'>,
): Promise<ReturnType<typeof runTurn> extends Promise<infer R> ? R : never> {
  return runTurn({
    model: 'test-model',
    systemPrompt: 'SYSTEM',
    history: [],
    userMessage: 'hello',
    sessionId: 'sess_1',
    platform: 'cli',
    tools: [],
    logger: {
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error() {},
      fatal() {},
      child() {
        return this;
      },
    },
    requestApproval: async () => 'deny',
    cwd: process.cwd(),
    ...overrides,
  });
}
