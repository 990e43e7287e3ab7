// The bare Slack baseline, as its own process: a Bolt Socket Mode app as Bolt's README shows it,
// posting the model's answer to each message (or, as the plain echo bot, a fixed text; see
// model.ts) in the message's thread (`say`); the channel (a DM) is the chat whose history it keeps.
// Settings from the environment: BENCH_SLACK_BOT_TOKEN, BENCH_SLACK_APP_TOKEN, BENCH_SLACK_API_URL,
// BENCH_MODEL_URL (…/v1). Prints {"ready":true} once connected.
import { App, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

const ask = await answerer();
const slackApiUrl = setting('BENCH_SLACK_API_URL');
const receiver = new SocketModeReceiver({
  appToken: setting('BENCH_SLACK_APP_TOKEN'),
  logLevel: LogLevel.ERROR,
  installerOptions: { clientOptions: { slackApiUrl } },
});
const app = new App({
  token: setting('BENCH_SLACK_BOT_TOKEN'),
  receiver,
  logLevel: LogLevel.ERROR,
  clientOptions: { slackApiUrl },
});
app.event('message', async ({ event, say }) => {
  if (event.subtype !== undefined || !('text' in event) || typeof event.text !== 'string') return;
  if ('bot_id' in event && event.bot_id !== undefined) return;
  await say({ text: await ask(event.channel, event.text), thread_ts: event.thread_ts ?? event.ts });
});
await app.start();
announceReady();
exitOnSignal(() => receiver.client.disconnect());
