// Discord for the process benches: DMs dispatched as MESSAGE_CREATE over the fake's gateway
// WebSocket, replies seen as the fake records them. Each system gets a fake of its own (the fake
// dispatches to every connected session). Bare: test/bench/bare/discord-echo.ts (discord.js).
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type DiscordChat, discordChats, injectMessage, watchDiscordReplies } from './discord-echo.js';
import { closeAll, type PlatformRig, type RunningSystem, type StartOptions } from './rig.js';
import { startBareOrHermes } from './start-system.js';

const TOKEN = 'MTc3NzAwMTc3NzAwMTc3NzAwMQ.GbEnCh.BENCH-discord-token-0123456789abcdefghij';
/**
 * discord.js paces all REST calls of a bot at 50 per second by default (Discord's global limit); at
 * that pace neither system could go past 50 msg/s, so both get the same, effectively unpaced, limit.
 */
export const BENCH_GLOBAL_REQUESTS_PER_SECOND = 100_000;

function startSystem(fake: FakeDiscord, options: StartOptions) {
  return startBareOrHermes(
    {
      sdk: 'bare discord.js',
      script: 'discord-echo',
      bareEnv: {
        BENCH_DISCORD_TOKEN: fake.token,
        BENCH_DISCORD_API_BASE: fake.apiBase,
        BENCH_DISCORD_GLOBAL_RPS: String(BENCH_GLOBAL_REQUESTS_PER_SECOND),
      },
      hermes: {
        platform: 'discord',
        settings: { api_base: fake.apiBase, global_requests_per_second: BENCH_GLOBAL_REQUESTS_PER_SECOND },
        env: { DISCORD_BOT_TOKEN: fake.token, DISCORD_ALLOWED_USERS: '*' },
      },
    },
    options,
  );
}

export const discordRig: PlatformRig<DiscordChat> = {
  platform: 'discord',
  apiCalls: 'REST calls',
  async start(options): Promise<RunningSystem<DiscordChat>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const fake = await startFakeDiscord({ token: TOKEN });
      closers.push(() => fake.close());
      const watch = watchDiscordReplies(fake);
      closers.push(() => watch.restore());
      const { label, proc } = await startSystem(fake, options);
      closers.push(() => proc.stop());
      let nextUser = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          send: (chat, text) => void injectMessage(fake, chat, text),
          next: (chat, timeoutMs) => watch.next(chat.channelId, timeoutMs),
          newChat: () => discordChats(fake, 1, 'dm', nextUser++)[0] as DiscordChat,
          describe: (chat) => `discord DM ${chat.channelId}`,
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
