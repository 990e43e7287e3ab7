// Strangers cannot make the bot talk or lock others out: the real daemon in-process, the real grammy
// adapter in webhook mode against the fake Bot API. 100 DMs from one stranger get one pairing reply
// (the rest stay in the inbox, unanswered); a fourth stranger on a platform with 3 pending codes
// gets a code and the oldest one expires (no lock-out); an approved user is answered throughout.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Daemon, startDaemon } from '../bad-input/lib/daemon.js';
import { echoModel, post, TG_PATH, TG_SECRET, TG_TOKEN } from '../bad-input/lib/platforms.js';
import { until } from '../bad-input/lib/wait.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';

const ALLOWED_USER = 4242;
const PAIRING = /pairing code is ([A-Z0-9]{8})/;

let model: FakeOpenAI;
let telegram: FakeTelegram;
let daemon: Daemon | undefined;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  telegram = await startFakeTelegram({ token: TG_TOKEN, longPollCapMs: 100 });
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
});
afterAll(async () => {
  await telegram.close();
  await model.close();
});

async function start(): Promise<Daemon> {
  daemon = await startDaemon({
    env: { TELEGRAM_BOT_TOKEN: TG_TOKEN, TELEGRAM_ALLOWED_USERS: String(ALLOWED_USER) },
    modelUrl: model.url,
    config: {
      gateway: {
        platforms: {
          telegram: { api_root: telegram.apiRoot, mode: 'webhook', webhook_secret: TG_SECRET },
        },
      },
    },
  });
  return daemon;
}

/** Posts one DM from `user` to the daemon's webhook, as Telegram does. */
async function dm(d: Daemon, user: number, text: string): Promise<void> {
  const update = telegram.webhookUpdate({ chatId: user, userId: user, text });
  const res = await post(`${d.url}${TG_PATH}`, JSON.stringify(update), {
    'content-type': 'application/json',
    'x-telegram-bot-api-secret-token': TG_SECRET,
  });
  expect(res.status).toBe(200);
}

async function settled(d: Daemon): Promise<void> {
  await d.idle();
  await until('the inbox settled', () => d.pendingInbox() === 0, 10_000);
  await d.idle();
}

const repliesTo = (user: number, from = 0) =>
  telegram.sent.slice(from).filter((m) => String(m.chat_id) === String(user));
const codeIn = (text: string | undefined) => PAIRING.exec(text ?? '')?.[1] ?? '';
const chatRequests = () => model.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe('strangers', () => {
  it('100 DMs from one stranger: one pairing reply, every message kept in the inbox, none reaches the model', async () => {
    const d = await start();
    const before = telegram.sent.length;
    const requestsBefore = chatRequests();
    for (let i = 0; i < 100; i++) await dm(d, 6_001, `let me in ${i}`);
    await settled(d);
    const replies = repliesTo(6_001, before);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.text).toMatch(PAIRING);
    // nothing lost: all 100 were accepted; one answered (the code), 99 kept as refused, unanswered
    expect(d.inboxCounts()).toMatchObject({ accepted: 0, processing: 0, done: 1, refused: 99, skipped: 0 });
    expect(chatRequests()).toBe(requestsBefore);
    // the allowed user is answered while the stranger keeps writing
    await dm(d, 6_001, 'still here');
    await dm(d, ALLOWED_USER, 'hello from the owner');
    await settled(d);
    expect(repliesTo(ALLOWED_USER, before).map((m) => m.text)).toEqual(['echo: hello from the owner']);
    expect(repliesTo(6_001, before)).toHaveLength(1);
  });

  it('a fourth stranger gets a code and the oldest pending one expires; an approved stranger is answered', async () => {
    const d = await start();
    const before = telegram.sent.length;
    const store = d.app.rt.sqlite;
    if (store === null) throw new Error('this test runs on SQLite');
    const strangers = [7_001, 7_002, 7_003, 7_004];
    const codes: string[] = [];
    for (const user of strangers) {
      await dm(d, user, 'hi');
      await settled(d);
      const replies = repliesTo(user, before);
      expect(replies).toHaveLength(1);
      codes.push(codeIn(replies[0]?.text));
    }
    expect(codes.every((c) => c.length === 8)).toBe(true);
    expect(new Set(codes).size).toBe(4);
    expect(
      store.pairing
        .list()
        .pending.map((p) => p.userId)
        .sort(),
    ).toEqual(['7002', '7003', '7004']);
    // the expired code no longer lets anyone in; its owner is not answered again within the hour
    expect(store.pairing.approve('telegram', codes[0] ?? '')).toEqual({ ok: false, reason: 'expired' });
    await dm(d, 7_001, 'hello again');
    await settled(d);
    expect(repliesTo(7_001, before)).toHaveLength(1);
    // the newest stranger is approved with their code and then answered by the agent
    expect(store.pairing.approve('telegram', codes[3] ?? '')).toMatchObject({ ok: true, userId: '7004' });
    await dm(d, 7_004, 'now I am in');
    await settled(d);
    expect(repliesTo(7_004, before).map((m) => m.text)).toEqual([expect.stringMatching(PAIRING), 'echo: now I am in']);
  });
});
