// Slack for the process benches: DMs pushed as Socket Mode envelopes by the fake Slack, replies seen
// as its chat.postMessage records. Each system gets a fake of its own (the fake sends every envelope
// to the newest socket). Bare: test/bench/bare/slack-echo.ts (Bolt, Socket Mode).
import { type FakeSlack, startFakeSlack } from '../fakes/slack-server.js';
import { closeAll, type PlatformRig, type RunningSystem, type StartOptions } from './rig.js';
import { injectSlackMessage, type SlackChat, slackChat, watchSlackReplies } from './slack-echo.js';
import { startBareOrHermes } from './start-system.js';

const BOT_TOKEN = 'xoxb-4770017770-4770027770-BenchBotToken';
const APP_TOKEN = 'xapp-1-A0BENCH0001-4770037770-BenchAppToken';

function startSystem(fake: FakeSlack, options: StartOptions) {
  return startBareOrHermes(
    {
      sdk: 'bare Bolt',
      script: 'slack-echo',
      bareEnv: {
        BENCH_SLACK_BOT_TOKEN: fake.botToken,
        BENCH_SLACK_APP_TOKEN: fake.appToken,
        BENCH_SLACK_API_URL: fake.apiUrl,
      },
      hermes: {
        platform: 'slack',
        settings: { api_url: fake.apiUrl, mode: 'socket' },
        env: { SLACK_BOT_TOKEN: fake.botToken, SLACK_APP_TOKEN: fake.appToken, SLACK_ALLOWED_USERS: '*' },
      },
    },
    options,
  );
}

export const slackRig: PlatformRig<SlackChat> = {
  platform: 'slack',
  apiCalls: 'Web API calls',
  async start(options): Promise<RunningSystem<SlackChat>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const fake = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
      closers.push(() => fake.close());
      const watch = watchSlackReplies(fake);
      closers.push(() => watch.restore());
      const { label, proc } = await startSystem(fake, options);
      closers.push(() => proc.stop());
      await fake.waitForLiveSocket(10_000);
      let nextChat = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          send: (chat, text) => injectSlackMessage(fake, chat, text),
          next: (chat, timeoutMs) => watch.next(chat.channel, timeoutMs),
          newChat: () => slackChat(nextChat++),
          describe: (chat) => `slack DM ${chat.channel}`,
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
