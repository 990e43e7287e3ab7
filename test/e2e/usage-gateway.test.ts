// Issue 35, `/usage` through `hermes gateway run` on Telegram (real grammy against the fake Bot API,
// the fake model reporting usage): after two turns a `user`-tier sender's /usage gives this
// session's tokens (summed from the model's reports, stored with each turn's transcript), their
// tokens and cost today (a daily limit applies to them, access.prices names the model), their
// tier's limits with what is left, and "not reported" for a provider without account limits. The
// account part at OpenRouter against a fake of its GET /key on 127.0.0.1 (OPENROUTER_BASE_URL):
// read, refused, and not answering within the timeout, the rest of /usage answered every time.
// And `hermes chat`'s /usage, its turns stored by the turn service itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenRouterKey, startFakeOpenRouterKey } from '../fakes/openrouter-key.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const ADMIN = 42;
const USER = 43;
const OPENROUTER_KEY = 'sk-or-v1-fake-key-0123456789abcdef';
const openai = useFakeOpenAI();
const telegram = useFakeTelegram();
let keys: FakeOpenRouterKey;
beforeAll(async () => {
  keys = await startFakeOpenRouterKey();
});
afterAll(async () => {
  await keys.close();
});

const CONFIG = `access:
  tiers:
    user:
      limits:
        tokens_per_day: 1000
        turns_per_minute: 5
  prices:
    test-model:
      input_per_million: 1000
      output_per_million: 2000
`;

function env(home: string): Record<string, string> {
  return {
    ...telegramGatewayEnv({
      home,
      modelUrl: openai.server.url,
      telegram: telegram.server,
      allowedUsers: `${ADMIN},${USER}`,
    }),
    // the limits' minute lasts 100 real minutes: a slow machine cannot end the window mid-test
    HERMES_LIMITS_CLOCK_SPEED: '0.01',
    OPENROUTER_API_KEY: OPENROUTER_KEY,
    OPENROUTER_BASE_URL: keys.url,
  };
}

/** Sends `text` as `user` and resolves with the bot's next message to that chat. */
async function say(user: number, text: string): Promise<string> {
  const tg = telegram.server;
  const before = tg.sent.filter((m) => m.chat_id === user).length;
  tg.pushMessage({ chatId: user, userId: user, text });
  await waitFor(() => tg.sent.filter((m) => m.chat_id === user).length > before, { what: `an answer to ${user}` });
  return String(tg.sent.filter((m) => m.chat_id === user)[before]?.text ?? '');
}

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('/usage through hermes gateway run', () => {
  it("after two turns: the session's tokens, the user's day and cost, their limits and what is left", async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), CONFIG);
    const usages = [
      { prompt_tokens: 120, completion_tokens: 30 },
      { prompt_tokens: 200, completion_tokens: 45 },
    ];
    openai.server.respond(() => ({ text: 'an answer', usage: usages[chats().length - 1] }));
    const gw = await spawnGateway(env(home));
    try {
      expect(await say(USER, 'first question')).toBe('an answer');
      expect(await say(USER, 'second question')).toBe('an answer');
      expect(chats()).toHaveLength(2);
      const usage = await say(USER, '/usage');
      expect(usage.split('\n')).toEqual([
        'This session: 4 messages, 395 tokens (prompt 320 + completion 75).',
        // (320 × 1000 + 75 × 2000) / 1,000,000
        'Today (UTC): 395 tokens, cost 0.47.',
        'Your limits (user tier): 1,000 tokens a day (605 left), 5 turns a minute (3 left).',
        'Account limits: not reported by custom.',
      ]);
      // the owner (admin): no limits, so no day counted; their own session has none yet
      expect((await say(ADMIN, '/usage')).split('\n')).toEqual([
        'This session: none yet.',
        'Today: not counted (no daily token or cost limit applies to you).',
        'Your limits (admin tier): none.',
        'Account limits: not reported by custom.',
      ]);
      expect(keys.requests).toHaveLength(0);
    } finally {
      await gw.stop();
    }
    // hermes chat: its turn's tokens are stored by the turn service's own append (no gateway)
    openai.server.respond(() => ({ text: 'from the terminal', usage: { prompt_tokens: 11, completion_tokens: 4 } }));
    const cli = await runHermes(['chat'], { env: env(home), input: 'hello\n/usage\n/exit\n' });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('This session: 2 messages, 15 tokens (prompt 11 + completion 4).');
    expect(cli.stdout).toContain('Your limits: none.');
    expect(cli.stdout).toContain('Account limits: not reported by custom.');
  });

  it("the account's limits at OpenRouter (a fake GET /key): read, refused, not answering; /usage answers each time", async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), CONFIG);
    const gw = await spawnGateway(env(home));
    try {
      expect(await say(ADMIN, '/model openrouter:openai/gpt-4o-mini')).toBe(
        'This chat now uses openrouter:openai/gpt-4o-mini.',
      );
      keys.reply({
        data: { limit: 10, usage: 2.5, limit_remaining: 7.5, rate_limit: { requests: 20, interval: '10s' } },
      });
      const read = (await say(ADMIN, '/usage')).split('\n');
      expect(read[0]).toBe('This session: 0 messages, 0 tokens (prompt 0 + completion 0).');
      expect(read.at(-1)).toBe(
        'Account (openrouter): used 2.5 of a 10 credit limit, 7.5 left; rate limit 20 requests per 10s.',
      );
      expect(keys.requests.at(-1)).toEqual({
        method: 'GET',
        path: '/api/v1/key',
        authorization: `Bearer ${OPENROUTER_KEY}`,
      });
      keys.reply({ data: { limit: null, usage: 0.125, limit_remaining: null } });
      expect((await say(ADMIN, '/usage')).split('\n').at(-1)).toBe(
        'Account (openrouter): used 0.125 credits, no credit limit.',
      );
      keys.reply({ status: 401 });
      expect((await say(ADMIN, '/usage')).split('\n').at(-1)).toBe(
        'Account (openrouter): could not be read (HTTP 401).',
      );
      keys.reply({ hang: true });
      const slow = (await say(ADMIN, '/usage')).split('\n');
      expect(slow[0]).toMatch(/^This session: /);
      expect(slow.at(-1)).toBe('Account (openrouter): could not be read (no answer within 3 s).');
    } finally {
      await gw.stop();
    }
    expect(gw.stderr()).not.toContain(OPENROUTER_KEY);
  });
});
