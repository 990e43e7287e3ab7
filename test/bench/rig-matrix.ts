// Matrix for the process benches: a fake homeserver in the bench process per system; each chat is
// a direct room with the bot and one user, whose messages reach the system through its /sync long
// poll; the bot's m.room.message sends are the replies. Bare: test/bench/bare/matrix-echo.ts (a
// fetch /sync loop; why not matrix-bot-sdk is said there).
import { type FakeMatrix, type MatrixPerson, startFakeMatrix } from '../fakes/matrix-server.js';
import { watchPushes } from './push-watch.js';
import { closeAll, type PlatformRig, type RunningSystem, type StartOptions } from './rig.js';
import { benchUntil, startBareOrHermes } from './start-system.js';

/** A bench chat: a direct room and the user writing in it. */
export interface MatrixChat {
  roomId: string;
  person: MatrixPerson;
}

function startSystem(fake: FakeMatrix, options: StartOptions) {
  return startBareOrHermes(
    {
      sdk: 'bare fetch /sync loop',
      script: 'matrix-echo',
      bareEnv: {
        BENCH_MATRIX_HOMESERVER_URL: fake.url,
        BENCH_MATRIX_ACCESS_TOKEN: fake.accessToken,
        BENCH_MATRIX_USER_ID: fake.bot.userId,
      },
      hermes: {
        platform: 'matrix',
        settings: {},
        env: {
          MATRIX_HOMESERVER_URL: fake.url,
          MATRIX_ACCESS_TOKEN: fake.accessToken,
          MATRIX_USER_ID: fake.bot.userId,
          MATRIX_ALLOWED_USERS: '*',
        },
      },
    },
    options,
  );
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
      await benchUntil('matrix: a /sync long poll', () => fake.pendingSyncs() > 0);
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
