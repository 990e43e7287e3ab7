// Signal for the process benches: a fake signal-cli JSON-RPC HTTP daemon in the bench process per
// system; each chat is a user whose messages are pushed on the daemon's event stream (SSE); the
// `send` calls are the replies. Bare: test/bench/bare/signal-echo.ts (fetch + SSE + JSON-RPC).
import { randomUUID } from 'node:crypto';
import { type FakeSignal, type SignalPerson, startFakeSignal } from '../fakes/signal-server.js';
import { watchPushes } from './push-watch.js';
import { closeAll, type PlatformRig, type RunningSystem, type StartOptions } from './rig.js';
import { benchUntil, startBareOrHermes } from './start-system.js';

function startSystem(fake: FakeSignal, options: StartOptions) {
  return startBareOrHermes(
    {
      sdk: 'bare fetch + SSE',
      script: 'signal-echo',
      bareEnv: { BENCH_SIGNAL_HTTP_URL: fake.url },
      hermes: {
        platform: 'signal',
        settings: {},
        env: { SIGNAL_HTTP_URL: fake.url, SIGNAL_ACCOUNT: fake.account, SIGNAL_ALLOWED_USERS: '*' },
      },
    },
    options,
  );
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
      await benchUntil('signal: an open event stream', () => fake.openStreams() > 0);
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
