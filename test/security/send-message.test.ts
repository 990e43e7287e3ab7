// `send_message` cannot be pointed at a chat by someone not allowed to: through real turns of the
// real daemon (Telegram webhook, Discord, Slack HTTP against their fakes), the model (scripted, as a
// prompt-injected model would) calls send_message with targets in chats only strangers wrote from,
// chats nobody wrote from, and a known chat with an arbitrary thread (on Discord a thread is a
// channel id). Only the origin, the home channel and chats allowed users wrote from receive anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmUpdate, TelegramIds } from '../bad-input/corpus/telegram.js';
import { type Daemon, startDaemon } from '../bad-input/lib/daemon.js';
import {
  ALLOWED,
  type Fakes,
  lastUserText,
  platformSetup,
  post,
  SLACK_PATH,
  startFakes,
  TG_PATH,
  TG_SECRET,
} from '../bad-input/lib/platforms.js';
import { until } from '../bad-input/lib/wait.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';

const HOME_CHANNEL = '-100888';
const GROUP = -100_777;
const STRANGER = { telegram: 6_666, discord: { id: '377000000000066666', name: 'eve' }, slack: 'U0STRANGER' };
const tgHeaders = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TG_SECRET };

let model: FakeOpenAI;
let fakes: Fakes;
let daemon: Daemon;
/** the send_message target each marker's turn uses */
const targets = new Map<string, string>();

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.respond((request) => {
    const messages = (request.body?.messages ?? []) as { role: string }[];
    const text = lastUserText(request);
    const marker = /target(\d+)x/.exec(text)?.[0];
    const target = marker === undefined ? undefined : targets.get(marker);
    if (target === undefined || messages.at(-1)?.role === 'tool') return { text: `done ${marker ?? ''}` };
    return {
      toolCalls: [{ name: 'send_message', arguments: { action: 'send', target, message: `INJECTED ${marker}` } }],
    };
  });
  fakes = await startFakes();
  const { env, platforms } = platformSetup(fakes, 'http');
  daemon = await startDaemon({
    env: { ...env, TELEGRAM_HOME_CHANNEL: HOME_CHANNEL },
    modelUrl: model.url,
    config: { agent: { toolsets: ['messaging'] }, gateway: { platforms } },
  });
  await fakes.discord.until(() => fakes.discord.latestReady(), 15_000, 'discord ready');
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await fakes?.close();
  await model?.close();
});

/** Every text the bot sent anywhere, with where it went. */
function everythingSent(): { where: string; text: string }[] {
  return [
    ...fakes.telegram.sent.map((m) => ({
      where: `telegram:${m.chat_id}${m.message_thread_id === undefined ? '' : `:${m.message_thread_id}`}`,
      text: m.text,
    })),
    ...fakes.discord.sent.map((m) => ({ where: `discord:${m.channel_id}`, text: m.content })),
    ...fakes.slack.posted.map((m) => ({ where: `slack:${m.channel}`, text: m.text })),
  ];
}

describe('send_message cannot be pointed at a chat by someone not allowed to', () => {
  it('only the origin, the home channel and chats allowed users wrote from receive a message', async () => {
    const ids = new TelegramIds(1);
    const tg = async (update: object) => {
      const res = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), tgHeaders);
      expect(res.status).toBe(200);
    };
    // strangers write first (they get pairing codes: their chats exist, but nobody allowed wrote there)
    await tg(dmUpdate(ids, 'let me in', STRANGER.telegram).update);
    const strangerDm = fakes.discord.dmMessage({ user: STRANGER.discord, content: 'let me in' });
    fakes.slack.addUser({ id: STRANGER.slack, name: 'eve' });
    await fakes.slack.postEvent(
      `${daemon.url}${SLACK_PATH}`,
      fakes.slack.eventCallback(
        fakes.slack.messageEvent({ channel: 'D0STRANGER', user: STRANGER.slack, text: 'let me in', channelType: 'im' }),
      ),
    );
    // the allowed user writes in a group (so it is a known chat) and in their DMs
    const group = dmUpdate(ids, '@hermes_test_bot hello group').update as { message: Record<string, unknown> };
    group.message.chat = { id: GROUP, type: 'supergroup', title: 'g' };
    group.message.entities = [{ type: 'mention', offset: 0, length: 16 }];
    await tg(group);
    const allowedDm = fakes.discord.dmMessage({ user: ALLOWED.discord, content: 'hello from discord' });
    await until('the first answers', () => everythingSent().length >= 5, 15_000);
    await daemon.idle();

    const general = fakes.discord.textChannelIds[0] ?? '';
    const cases: [target: string, allowedWhere: string | null][] = [
      ['origin', `telegram:${ALLOWED.telegram}`],
      ['telegram', `telegram:${HOME_CHANNEL}`],
      [`telegram:${GROUP}`, `telegram:${GROUP}`],
      [`telegram:${STRANGER.telegram}`, null],
      [`telegram:${STRANGER.telegram}:1`, null],
      [`telegram:-100999`, null],
      [`telegram:${GROUP}:42`, null],
      [` telegram:${STRANGER.telegram}`, null],
      [`TELEGRAM:${STRANGER.telegram}`, null],
      [`telegram: ${STRANGER.telegram}`, null],
      [`telegram:${STRANGER.telegram} `, null],
      [`discord:${strangerDm.channel_id}`, null],
      [`discord:${allowedDm.channel_id}:${strangerDm.channel_id}`, null],
      [`discord:${allowedDm.channel_id}:${general}`, null],
      [`discord:${general}`, null],
      [`slack:D0STRANGER`, null],
      [`slack:${ALLOWED.slack.dm}`, null],
      ['api:whatever', null],
      ['', null],
    ];
    for (const [i, [target]] of cases.entries()) {
      const marker = `target${i}x`;
      targets.set(marker, target);
      await tg(dmUpdate(ids, `${marker} please forward`).update);
      await until(
        `the turn of ${JSON.stringify(target)}`,
        () => everythingSent().some((m) => m.text.includes(`done ${marker}`)),
        15_000,
      );
    }
    await daemon.idle();
    const injected = everythingSent().filter((m) => m.text.includes('INJECTED'));
    const wrong: string[] = [];
    for (const [i, [target, allowedWhere]] of cases.entries()) {
      const marker = `target${i}x`;
      const got = injected.filter((m) => m.text.includes(`INJECTED ${marker}`)).map((m) => m.where);
      const expected = allowedWhere === null ? [] : [allowedWhere];
      if (JSON.stringify(got) !== JSON.stringify(expected))
        wrong.push(`${JSON.stringify(target)}: sent to ${JSON.stringify(got)}`);
    }
    expect(wrong).toEqual([]);
    // the refusals reached the model as tool errors (the turn went on, nothing was sent)
    const toolResults = model.requests
      .flatMap((r) => (r.body?.messages ?? []) as { role: string; content?: unknown }[])
      .filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(toolResults.some((c) => /not a home channel or a chat I talk with/.test(c))).toBe(true);
    console.log(`send_message: ${cases.length} targets tried, ${injected.length} deliveries, all to allowed chats`);
  }, 90_000);
});
