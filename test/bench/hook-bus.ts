// Per-call cost of the hook bus with 0, 1 and 10 no-op callbacks (observe and gate kinds).
import { HookBus } from '../../packages/plugins/src/index.js';
import { smokeOr } from './smoke.js';

const CALLS = smokeOr(200_000, 2_000);
const WARMUP_CALLS = CALLS / 10;
const payload = { sessionId: 's', model: 'm', platform: 'cli' };
const toolPayload = { toolName: 't', args: {}, taskId: '', sessionId: 's', toolCallId: 'c' };

async function measure(callbacks: number, hook: 'on_session_start' | 'pre_tool_call'): Promise<number> {
  const bus = new HookBus();
  for (let i = 0; i < callbacks; i++) bus.register(hook, () => undefined, { source: 'builtin', name: `noop${i}` });
  const p = hook === 'pre_tool_call' ? toolPayload : payload;
  const invoke = bus.invoke.bind(bus) as (h: string, p: unknown) => Promise<unknown>;
  for (let i = 0; i < WARMUP_CALLS; i++) await invoke(hook, p);
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await invoke(hook, p);
  return Number(process.hrtime.bigint() - started) / CALLS;
}

/** Prints the hook-bus figures. */
export async function runHookBus(): Promise<void> {
  for (const hook of ['on_session_start', 'pre_tool_call'] as const) {
    const parts: string[] = [];
    let base = 0;
    for (const n of [0, 1, 10]) {
      const ns = await measure(n, hook);
      if (n === 0) base = ns;
      const per = n === 0 ? '' : ` (${((ns - base) / n).toFixed(0)} ns per callback)`;
      parts.push(`${n} callbacks ${ns.toFixed(0)} ns/call${per}`);
    }
    console.log(`hook bus ${hook}: ${parts.join('; ')} (target <= 2000 ns per no-op callback)`);
  }
}
