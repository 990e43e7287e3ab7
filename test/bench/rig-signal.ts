// Signal for the process benches: a fake signal-cli JSON-RPC HTTP daemon in the bench process per
// system; each chat is a user whose messages are pushed on the daemon's event stream (SSE); the
// `send` calls are the replies. Bare: test/bench/bare/signal-echo.ts (fetch + SSE + JSON-RPC).
import { randomUUID } from 'node:crypto';
import { type FakeSignal, type SignalPerson, startFakeSignal } from '../fakes/signal-server.js';
import { bareScript } from './bare-build.js';
import { startHermesProcess } from './hermes-process.js';
import { watchPushes } from './push-watch.js';
import { bareLabel, closeAll, type PlatformRig, plainEcho, type RunningSystem, type StartOptions } from './rig.js';
import { spawnSystem } from './system-process.js';

async function startSystem(fake: FakeSignal, options: StartOptions) {
  if (options.kind === 'openclaw') throw new Error('openclaw: the bench runs it on Telegram only');
  if (options.kind !== 'hermes') {
    const label = bareLabel('bare fetch + SSE', options.kind);
    const proc = await spawnSystem({
      name: label,
      command: process.execPath,
      args: [bareScript('signal-echo')],
      env: { BENCH_SIGNAL_HTTP_URL: fake.url, BENCH_MODEL_URL: options.modelUrl, ...plainEcho(options.kind) },
      ready: /\{"ready":true\}/,
    });
    return { label, proc };
  }
  const proc = await startHermesProcess({
    platform: 'signal',
    settings: {},
    env: { SIGNAL_HTTP_URL: fake.url, SIGNAL_ACCOUNT: fake.account, SIGNAL_ALLOWED_USERS: '*' },
    modelUrl: options.modelUrl,
    maxConcurrentRuns: options.maxConcurrentRuns,
    ...(options.prepare ? { prepare: options.prepare } : {}),
  });
  return { label: 'hermes', proc };
}

/** Resolves once the system's event stream is open (it sees what is pushed from then on). */
async function streamOpen(fake: FakeSignal, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (fake.openStreams() === 0) {
    if (performance.now() > deadline) throw new Error(`signal: no open event stream within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const signalRig: PlatformRig<SignalPerson> = {
  platform: 'signal',
  apiCalls: 'JSON-RPC calls',
  async start(options): Promise<RunningSystem<SignalPerson>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const fake = await startFakeSignal();
      closers.push(() => fake.close());
      const watch = watchPushes(fake.sent, { keyOf: (m) => m.chatId, textOf: (m) => m.message });
      closers.push(() => watch.restore());
      const { label, proc } = await startSystem(fake, options);
      closers.push(() => proc.stop());
      await streamOpen(fake, 10_000);
      let next = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          send: (person, text) => void fake.message(person, text),
          next: (person, timeoutMs) => watch.next(person.number, timeoutMs),
          newChat: () => {
            const i = next++;
            return { number: `+1555${String(3_000_000 + i)}`, uuid: randomUUID(), name: `Bench ${i}` };
          },
          describe: (person) => `signal chat ${person.number}`,
        },
        takeApiCalls() {
          const calls = fake.calls.length;
          fake.reset();
          return calls;
        },
        unexpected: () => watch.unexpected,
        close: () => closeAll(closers),
      };
    } catch (error) {
      await closeAll(closers);
      throw error;
    }
  },
};
