// The bare Discord baseline, as its own process: a discord.js bot that sends the model's answer to
// each message (or, as the plain echo bot, a fixed text; see model.ts) in the same channel (a reply
// in guilds, a plain message in DMs, as Hermes answers); the channel is the chat whose history it
// keeps. Settings from the environment: BENCH_DISCORD_TOKEN, BENCH_DISCORD_API_BASE,
// BENCH_DISCORD_GLOBAL_RPS (REST pacing; discord.js's default is 50/s), BENCH_MODEL_URL (…/v1).
// Prints {"ready":true} once the gateway session is ready.
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js';
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

const ask = await answerer();
const client = new Client({
  intents: [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.DirectMessages,
    GatewayIntentBits.MessageContent,
  ],
  partials: [Partials.Channel],
  rest: {
    api: setting('BENCH_DISCORD_API_BASE'),
    globalRequestsPerSecond: Number(setting('BENCH_DISCORD_GLOBAL_RPS')),
  },
});
client.on(Events.MessageCreate, (message) => {
  if (message.author.bot || !message.channel.isSendable()) return;
  const channel = message.channel;
  ask(message.channelId, message.content)
    .then(async (answer) => {
      if (message.inGuild()) await message.reply(answer);
      else await channel.send(answer);
    })
    .catch((error: unknown) => process.stderr.write(`bare discord bot: ${String(error)}\n`));
});
const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
await client.login(setting('BENCH_DISCORD_TOKEN'));
await ready;
announceReady();
exitOnSignal(() => client.destroy());
