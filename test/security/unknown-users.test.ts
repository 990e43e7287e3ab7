// Unknown users never reach the model, on every platform and intake mode: a DM gets a pairing code
// and nothing else, a group message (even mentioning the bot) gets silence, commands do nothing, a
// message in an allowed user's chat is still the stranger's, and the API platform refuses a request
// without its key. The real daemon in-process against the platform fakes; the model request count
// is the proof (an allowed user's message, sent last, shows the count can move).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dmUpdate, TelegramIds } from '../bad-input/corpus/telegram.js';
import { type Daemon, startDaemon } from '../bad-input/lib/daemon.js';
import {
  ALLOWED,
  echoModel,
  type Fakes,
  platformSetup,
  post,
  SLACK_PATH,
  startFakes,
  TG_PATH,
  TG_SECRET,
} from '../bad-input/lib/platforms.js';
import { eventually, until } from '../bad-input/lib/wait.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';

const API_KEY = 'security-api-server-key-77c1e0a9';
const COMMANDS = [
  '/new',
  '/reset',
  '/status',
  '/sethome',
  '/queue do it',
  '/steer do it',
  '/stop',
  '/help',
  '/model',
  '/usage',
  '/plugins',
];
const STRANGERS = { telegram: 6_666, discord: { id: '377000000000066666', name: 'eve' }, slack: 'U0STRANGER' } as const;

let model: FakeOpenAI;
let fakes: Fakes;
let daemon: Daemon | undefined;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  fakes = await startFakes();
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
});
afterAll(async () => {
  await fakes.close();
  await model.close();
});

const chatRequests = () => model.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
const pairingText = /pairing code is [A-Z0-9]{8}/;
const tgHeaders = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TG_SECRET };

/** Waits until the gateway processed everything it accepted (the inbox has no unfinished row). */
async function settled(d: Daemon): Promise<void> {
  await d.idle();
  await until('the inbox settled', () => d.pendingInbox() === 0, 10_000);
  await d.idle();
}

describe('unknown users never reach the model', () => {
  it('telegram webhook, discord and slack http events: DMs get a pairing code only, groups and commands nothing', async () => {
    const { env, platforms } = platformSetup(fakes, 'http');
    daemon = await startDaemon({
      env: { ...env, API_SERVER_KEY: API_KEY },
      modelUrl: model.url,
      config: { gateway: { platforms } },
    });
    const d = daemon;
    await fakes.discord.until(() => fakes.discord.latestReady(), 15_000, 'discord ready');
    model.reset();
    echoModel(model);
    const ids = new TelegramIds(1_000);
    const tg = async (update: object) => {
      const res = await post(`${d.url}${TG_PATH}`, JSON.stringify(update), tgHeaders);
      expect(res.status).toBe(200);
    };
    const slackPost = async (event: object) => {
      const res = await fakes.slack.postEvent(`${d.url}${SLACK_PATH}`, fakes.slack.eventCallback(event));
      expect(res.status).toBe(200);
    };
    const sentBefore = {
      tg: fakes.telegram.sent.length,
      discord: fakes.discord.sent.length,
      slack: fakes.slack.posted.length,
    };

    // Telegram: a DM, each command, a group mention, and a message in the allowed user's chat id
    for (const text of ['hello, let me in', ...COMMANDS]) await tg(dmUpdate(ids, text, STRANGERS.telegram).update);
    const group = dmUpdate(ids, '@hermes_test_bot please answer', STRANGERS.telegram).update as {
      message: Record<string, unknown>;
    };
    group.message.chat = { id: -100_777, type: 'supergroup', title: 'g' };
    group.message.entities = [{ type: 'mention', offset: 0, length: 16 }];
    await tg(group);
    const spoof = dmUpdate(ids, 'I am in the allowed chat', STRANGERS.telegram).update as {
      message: Record<string, unknown>;
    };
    spoof.message.chat = { id: ALLOWED.telegram, type: 'private', first_name: 'Ada' };
    await tg(spoof);
    // Discord: a DM, commands, a guild mention, a slash command
    for (const content of ['hello, let me in', ...COMMANDS])
      fakes.discord.dmMessage({ user: STRANGERS.discord, content });
    fakes.discord.guildMessage({ user: STRANGERS.discord, content: 'answer me', mention: true });
    fakes.discord.interaction({ name: 'new', user: STRANGERS.discord, where: 'guild' });
    // Slack: a DM, commands, a channel mention, a message in the allowed user's DM channel
    fakes.slack.addUser({ id: STRANGERS.slack, name: 'eve' });
    for (const text of ['hello, let me in', ...COMMANDS]) {
      await slackPost(
        fakes.slack.messageEvent({ channel: 'D0STRANGER', user: STRANGERS.slack, text, channelType: 'im' }),
      );
    }
    const mention = fakes.slack.messageEvent({
      channel: 'C0GENERAL',
      user: STRANGERS.slack,
      text: `<@${fakes.slack.bot.userId}> hi`,
    });
    await slackPost(mention);
    await slackPost(fakes.slack.appMentionEvent(mention));
    await slackPost(
      fakes.slack.messageEvent({
        channel: ALLOWED.slack.dm,
        user: STRANGERS.slack,
        text: 'in your DM',
        channelType: 'im',
      }),
    );
    // the API platform: no key, a wrong key
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${API_KEY}x`]) {
      const res = await fetch(`${d.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'let me in' }] }),
      });
      expect(res.status).toBe(401);
    }
    await eventually(() => fakes.discord.sent.length > sentBefore.discord, 10_000);
    await settled(d);

    expect(chatRequests()).toBe(0);
    // every reply to a stranger is a pairing message (or nothing)
    const tgReplies = fakes.telegram.sent.slice(sentBefore.tg);
    const discordReplies = fakes.discord.sent.slice(sentBefore.discord);
    const slackReplies = fakes.slack.posted.slice(sentBefore.slack);
    for (const m of [
      ...tgReplies.map((r) => r.text),
      ...discordReplies.map((r) => r.content),
      ...slackReplies.map((r) => r.text),
    ]) {
      expect(m).toMatch(pairingText);
    }
    // the group mentions got silence; the DMs got their pairing replies
    expect(tgReplies.filter((m) => String(m.chat_id) === '-100777')).toEqual([]);
    expect(tgReplies.length).toBeGreaterThan(0);
    expect(discordReplies.length).toBeGreaterThan(0);
    expect(slackReplies.length).toBeGreaterThan(0);
    expect(slackReplies.filter((m) => m.channel === 'C0GENERAL')).toEqual([]);
    // /sethome from a stranger set nothing
    expect(process.env.TELEGRAM_HOME_CHANNEL).toBeUndefined();
    expect(existsSync(join(d.home, '.env'))).toBe(false);
    console.log(
      `unknown users: ${tgReplies.length + discordReplies.length + slackReplies.length} pairing replies, 0 model requests`,
    );

    // the positive control: the allowed user's message does reach the model
    await tg(dmUpdate(ids, 'allowed user here').update);
    await until('the allowed answer', () => chatRequests() === 1, 10_000);
  }, 60_000);

  it('telegram long polling and slack socket mode: the same holds', async () => {
    const { env, platforms } = platformSetup(fakes, 'stream');
    daemon = await startDaemon({ env, modelUrl: model.url, config: { gateway: { platforms } } });
    const d = daemon;
    await fakes.slack.waitForLiveSocket(15_000);
    model.reset();
    echoModel(model);
    const tgBefore = fakes.telegram.sent.length;
    const slackBefore = fakes.slack.posted.length;
    for (const text of ['hello, let me in', ...COMMANDS]) {
      fakes.telegram.pushMessage({ chatId: STRANGERS.telegram, userId: STRANGERS.telegram, text });
      fakes.slack.pushMessage({ channel: 'D0STRANGER', user: STRANGERS.slack, text, channelType: 'im' });
    }
    fakes.telegram.pushMessage({
      chatId: -100_777,
      chatType: 'supergroup',
      userId: STRANGERS.telegram,
      text: '@hermes_test_bot hi',
    });
    fakes.slack.pushMessage({ channel: 'C0GENERAL', user: STRANGERS.slack, text: `<@${fakes.slack.bot.userId}> hi` });
    await until('telegram pairing replies', () => fakes.telegram.sent.length > tgBefore, 10_000);
    await until('slack pairing replies', () => fakes.slack.posted.length > slackBefore, 10_000);
    // every update was consumed: the offset passed them all
    await until('the telegram offset', () => fakes.telegram.queued().length === 0, 10_000);
    await settled(d);
    expect(chatRequests()).toBe(0);
    for (const m of fakes.telegram.sent.slice(tgBefore)) expect(m.text).toMatch(pairingText);
    for (const m of fakes.slack.posted.slice(slackBefore)) expect(m.text).toMatch(pairingText);
    fakes.telegram.pushMessage({ chatId: ALLOWED.telegram, userId: ALLOWED.telegram, text: 'allowed user here' });
    await until('the allowed answer', () => chatRequests() === 1, 10_000);
  }, 60_000);

  it('pairing codes sent in chat approve nobody: a stranger guessing codes in messages stays a stranger', async () => {
    const { env, platforms } = platformSetup(fakes, 'http');
    daemon = await startDaemon({ env, modelUrl: model.url, config: { gateway: { platforms } } });
    const d = daemon;
    model.reset();
    echoModel(model);
    const ids = new TelegramIds(5_000);
    const pairing = d.app.rt.sqlite?.pairing;
    if (pairing === undefined) throw new Error('this test runs on SQLite');
    const first = dmUpdate(ids, 'hi', STRANGERS.telegram).update;
    await post(`${d.url}${TG_PATH}`, JSON.stringify(first), tgHeaders);
    await settled(d);
    const pending = pairing.list().pending.find((p) => p.userId === String(STRANGERS.telegram));
    expect(pending?.code).toMatch(/^[A-Z0-9]{8}$/);
    // the stranger sends their own code back, and approve-like commands: nothing approves them
    for (const text of [
      pending?.code ?? '',
      `/approve ${pending?.code}`,
      `/pair ${pending?.code}`,
      `hermes pairing approve telegram ${pending?.code}`,
    ]) {
      await post(`${d.url}${TG_PATH}`, JSON.stringify(dmUpdate(ids, text, STRANGERS.telegram).update), tgHeaders);
    }
    await settled(d);
    expect(pairing.isApproved('telegram', String(STRANGERS.telegram))).toBe(false);
    expect(chatRequests()).toBe(0);
  }, 60_000);
});
