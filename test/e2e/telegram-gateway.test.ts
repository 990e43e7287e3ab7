// The acceptance path: `hermes gateway run` with real grammy against the fake Bot API and the real
// openai client against the fake model.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { quietPeriod, waitFor, waitForValue } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  ...extra,
});

describe('Telegram through hermes gateway run', () => {
  it('polling: an allowed DM is answered; health shows telegram connected', async () => {
    const home = tempHome();
    const gw = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      const health = await waitForValue(
        async () =>
          (await (await fetch(`${gw.url}/health`)).json()) as {
            status: string;
            platforms: Record<string, { state: string }>;
          },
        (body) => body.platforms.telegram?.state === 'connected',
        { what: 'telegram connected in /health' },
      );
      expect(health.status).toBe('ok');
      openai.server.script({ text: 'Hello from **Hermes**' });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hi bot' });
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]).toMatchObject({ chat_id: 42, text: 'Hello from <b>Hermes</b>', parse_mode: 'HTML' });
      tg.pushMessage({ chatId: 42, userId: 42, text: '/sethome' });
      await waitFor(() => tg.sent.length > 1);
      expect(tg.sent[1]?.text).toBe('This chat is now the telegram home channel.');
      expect(readFileSync(join(home, '.env'), 'utf8')).toContain('TELEGRAM_HOME_CHANNEL=42');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    expect(gw.stderr()).not.toContain(TOKEN);
  });

  it('group_allowed_chats: only the listed groups are served; direct messages always; a bad id stops the start naming it', async () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      'gateway:\n  free_response_chats: ["telegram:-100222"]\n  platforms:\n    telegram:\n      group_allowed_chats: [-100111, "-100333"]\n',
    );
    const gw = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    try {
      openai.server.respond((request) => ({ text: `echo ${JSON.stringify(request.body?.messages ?? []).length}` }));
      const mention = `@${tg.bot.username} hello`;
      // a listed group, a group not listed (answered freely if it were served), a direct message
      tg.pushMessage({ chatId: -100222, chatType: 'supergroup', userId: 42, text: mention });
      tg.pushMessage({ chatId: -100111, chatType: 'supergroup', userId: 42, text: mention });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hello in private' });
      await waitFor(() => tg.sent.length >= 2, { what: 'the listed group and the DM answered' });
      // updates are delivered in order: the unlisted group's, first, was already passed over
      await quietPeriod(300, 'no late answer to the unlisted group');
      expect(tg.sent.map((m) => m.chat_id).sort()).toEqual([-100111, 42]);
      expect(openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    writeFileSync(
      join(home, 'config.yaml'),
      'gateway:\n  platforms:\n    telegram:\n      group_allowed_chats: ["general"]\n',
    );
    const bad = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    try {
      const health = await waitForValue(
        async () =>
          (await (await fetch(`${bad.url}/health`)).json()) as {
            platforms: Record<string, { state: string; error?: string }>;
          },
        (body) => body.platforms.telegram?.state === 'error',
        { what: 'telegram in error for the bad chat id' },
      );
      expect(health.platforms.telegram?.error).toContain('group_allowed_chats[0]: "general" is not a chat id');
    } finally {
      expect(await bad.stop()).toBe(0);
    }
  });

  it('pairing: an unknown user gets a code only; after hermes pairing approve they are answered', async () => {
    const home = tempHome();
    const gw = await spawnGateway(env(home));
    try {
      tg.pushMessage({ chatId: 77, userId: 77, text: 'hello?', username: 'eve' });
      await waitFor(() => tg.sent.length > 0);
      const code = /pairing code is ([A-Z0-9]{8})/.exec(tg.sent[0]?.text ?? '')?.[1] ?? '';
      expect(code).toHaveLength(8);
      expect(openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
      const wrong = await runHermes(['pairing', 'approve', 'telegram', 'AAAAAAAA'], { env: { HERMES_HOME: home } });
      expect(wrong.code).toBe(1);
      const approve = await runHermes(['pairing', 'approve', 'telegram', code], { env: { HERMES_HOME: home } });
      expect(approve.code).toBe(0);
      openai.server.script({ text: 'welcome aboard' });
      tg.pushMessage({ chatId: 77, userId: 77, text: 'hello again' });
      await waitFor(() => tg.sent.length > 1);
      expect(tg.sent[1]?.text).toBe('welcome aboard');
    } finally {
      await gw.stop();
    }
  });

  it('webhook: the right secret is processed, a wrong one gets 401 and nothing happens', async () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      'gateway:\n  platforms:\n    telegram:\n      mode: webhook\n      webhook_url: https://bot.example.invalid/telegram/webhook\n      webhook_secret: s3cret-token-value\n',
    );
    const gw = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    try {
      expect(tg.webhook()).toMatchObject({
        url: 'https://bot.example.invalid/telegram/webhook',
        secret_token: 's3cret-token-value',
      });
      const post = (secret: string | null) =>
        fetch(`${gw.url}/telegram/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
          },
          body: JSON.stringify(tg.webhookUpdate({ chatId: 42, userId: 42, text: 'via webhook' })),
        });
      expect((await post('wrong')).status).toBe(401);
      expect((await post(null)).status).toBe(401);
      openai.server.script({ text: 'webhook answer' });
      expect((await post('s3cret-token-value')).status).toBe(200);
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]?.text).toBe('webhook answer');
      // the refused posts were never taken in: the model saw the accepted one only
      expect(openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    } finally {
      await gw.stop();
    }
  });

  it('kill -9 between accepting and replying: after a restart exactly one reply per message', async () => {
    const home = tempHome();
    const gw = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    openai.server.script({ hang: true });
    tg.pushMessage({ chatId: 42, userId: 42, text: 'first message' });
    await waitFor(() => openai.server.requests.some((r) => r.path.endsWith('/chat/completions')));
    await gw.stop('SIGKILL');
    expect(tg.sent).toHaveLength(0);
    openai.server.script({ text: 'answer after the crash' });
    const again = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    try {
      await waitFor(() => tg.sent.length > 0);
      await quietPeriod(600, 'time for a duplicate (recovery, a re-fetched update) to show up'); // no marker: either may come
      expect(tg.sent.map((m) => m.text)).toEqual(['answer after the crash']);
    } finally {
      await again.stop();
    }
  });

  it('a 10,000-character answer arrives split within the limit with fences intact; a 429 is waited out', async () => {
    const home = tempHome();
    const gw = await spawnGateway(env(home, { TELEGRAM_ALLOWED_USERS: '42' }));
    try {
      const code = `\`\`\`ts\n${Array.from({ length: 60 }, (_, i) => `const v${i} = ${i};`).join('\n')}\n\`\`\``;
      const prose = Array.from(
        { length: 80 },
        (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(4)}`,
      ).join('\n\n');
      const long = `${prose}\n\n${code}\n\n${prose}`.slice(0, 10_000);
      tg.failNext('sendMessage', { status: 429, retryAfter: 1 });
      openai.server.script({ text: long });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'write a lot' });
      // the last chunk is here once the sent text ends with the answer's end
      const squash = (text: string) => text.replace(/\s+/g, '');
      const end = squash(long.slice(-40));
      await waitFor(() => tg.sent.length >= 3 && squash(tg.sent.map((m) => m.text).join('')).includes(end));
      for (const m of tg.sent) expect(m.text.length).toBeLessThanOrEqual(4096);
      for (const m of tg.sent)
        expect((m.text.match(/<pre>/g) ?? []).length).toBe((m.text.match(/<\/pre>/g) ?? []).length);
      expect(tg.calls.some((c) => c.method === 'sendMessage' && c.status === 429)).toBe(true);
      const texts = tg.sent.map((m) => m.text);
      expect(new Set(texts).size).toBe(texts.length); // nothing sent twice
    } finally {
      await gw.stop();
    }
  });
});
