// Matrix for the process benches: a fake homeserver in the bench process per system; each chat is
// a direct room with the bot and one user, whose messages reach the system through its /sync long
// poll; the bot's m.room.message sends are the replies. Bare: test/bench/bare/matrix-echo.ts (a
// fetch /sync loop; why not matrix-bot-sdk is said there).
import { type FakeMatrix, type MatrixPerson, startFakeMatrix } from '../fakes/matrix-server.js';
import { bareScript } from './bare-build.js';
import { startHermesProcess } from './hermes-process.js';
import { watchPushes } from './push-watch.js';
import { bareLabel, closeAll, type PlatformRig, plainEcho, type RunningSystem, type StartOptions } from './rig.js';
import { spawnSystem } from './system-process.js';

/** A bench chat: a direct room and the user writing in it. */
export interface MatrixChat {
  roomId: string;
  person: MatrixPerson;
}

async function startSystem(fake: FakeMatrix, options: StartOptions) {
  if (options.kind === 'openclaw') throw new Error('openclaw: the bench runs it on Telegram only');
  if (options.kind !== 'hermes') {
    const label = bareLabel('bare fetch /sync loop', options.kind);
    const proc = await spawnSystem({
      name: label,
      command: process.execPath,
      args: [bareScript('matrix-echo')],
      env: {
        BENCH_MATRIX_HOMESERVER_URL: fake.url,
        BENCH_MATRIX_ACCESS_TOKEN: fake.accessToken,
        BENCH_MATRIX_USER_ID: fake.bot.userId,
        BENCH_MODEL_URL: options.modelUrl,
        ...plainEcho(options.kind),
      },
      ready: /\{"ready":true\}/,
    });
    return { label, proc };
  }
  const proc = await startHermesProcess({
    platform: 'matrix',
    settings: {},
    env: {
      MATRIX_HOMESERVER_URL: fake.url,
      MATRIX_ACCESS_TOKEN: fake.accessToken,
      MATRIX_USER_ID: fake.bot.userId,
      MATRIX_ALLOWED_USERS: '*',
    },
    modelUrl: options.modelUrl,
    maxConcurrentRuns: options.maxConcurrentRuns,
    ...(options.prepare ? { prepare: options.prepare } : {}),
  });
  return { label: 'hermes', proc };
}

/** Resolves once the system waits in a /sync long poll (it sees what is sent from then on). */
async function longPolling(fake: FakeMatrix, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (fake.pendingSyncs() === 0) {
    if (performance.now() > deadline) throw new Error(`matrix: no /sync long poll within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const matrixRig: PlatformRig<MatrixChat> = {
  platform: 'matrix',
  apiCalls: 'Client-Server API requests (/sync included)',
  async start(options): Promise<RunningSystem<MatrixChat>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const fake = await startFakeMatrix();
      closers.push(() => fake.close());
      const watch = watchPushes(fake.sent, {
        keyOf: (e) => e.roomId,
        textOf: (e) => String(e.content.body ?? ''),
        isReply: (e) => e.type === 'm.room.message',
      });
      closers.push(() => watch.restore());
      const { label, proc } = await startSystem(fake, options);
      closers.push(() => proc.stop());
      await longPolling(fake, 10_000);
      let next = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          send: (chat, text) => void fake.message(chat.roomId, chat.person, text),
          next: (chat, timeoutMs) => watch.next(chat.roomId, timeoutMs),
          newChat: () => {
            const i = next++;
            const person = { userId: `@bench${i}:${fake.serverName}`, displayName: `Bench ${i}` };
            return { roomId: fake.directRoom(person), person };
          },
          describe: (chat) => `matrix room ${chat.roomId}`,
        },
        takeApiCalls() {
          const calls = fake.requests.length;
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
