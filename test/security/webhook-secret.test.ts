// Webhooks are always verified. Telegram webhook mode without `webhook_secret` generates a secret
// (Telegram's charset), keeps it in state.db across restarts and registers it with setWebhook; a
// forged update claiming to be the allowed user gets 401 before its body is read and never reaches
// the model, while Telegram's own delivery (the fake, carrying the registered secret) is answered.
// Slack HTTP mode refuses an unsigned request on the real daemon. The real daemon in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Daemon, startDaemon } from '../bad-input/lib/daemon.js';
import { post } from '../bad-input/lib/platforms.js';
import { until } from '../bad-input/lib/wait.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { head, openSocket, rawRequest, readResponse } from './lib/raw-http.js';

const TG_TOKEN = '777010:SECURITY-telegram-token-0123456789abcdef';
const TG_PATH = '/telegram/webhook';
const ALLOWED = 4242;
const SLACK = {
  botToken: 'xoxb-7770107770-7770107771-SecurityBotToken',
  appToken: 'xapp-1-A0SECURITY1-7770107772-SecurityAppToken',
  signingSecret: 'security-signing-secret-0d9e7c1b2a',
};

let model: FakeOpenAI;
let telegram: FakeTelegram;
let slack: FakeSlack;
let home: string | undefined;

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.respond(() => ({ text: 'answered' }));
  telegram = await startFakeTelegram({ token: TG_TOKEN, longPollCapMs: 100 });
  slack = await startFakeSlack({ ...SLACK, pingIntervalMs: 5_000 });
});

afterAll(async () => {
  await model.close();
  await telegram.close();
  await slack.close();
});

function start(): Promise<Daemon> {
  return startDaemon({
    modelUrl: model.url,
    ...(home === undefined ? {} : { home }),
    env: {
      TELEGRAM_BOT_TOKEN: TG_TOKEN,
      TELEGRAM_ALLOWED_USERS: String(ALLOWED),
      SLACK_BOT_TOKEN: SLACK.botToken,
      SLACK_SIGNING_SECRET: SLACK.signingSecret,
      SLACK_ALLOWED_USERS: 'U0ALLOWED1',
    },
    config: {
      gateway: {
        platforms: {
          // no webhook_secret: the gateway must make one
          telegram: {
            api_root: telegram.apiRoot,
            mode: 'webhook',
            webhook_url: `https://bot.example.invalid${TG_PATH}`,
          },
          slack: { api_url: slack.apiUrl, mode: 'http', events_path: '/slack/events' },
        },
      },
    },
  });
}

const update = (text: string) => telegram.webhookUpdate({ chatId: ALLOWED, userId: ALLOWED, firstName: 'Ada', text });

describe('webhooks are always verified', () => {
  it('generates a Telegram secret, registers it, keeps it in state, and refuses forged updates with 401', async () => {
    home = mkdtempSync(join(tmpdir(), 'hermes-webhook-secret-'));
    const daemon = await start();
    try {
      await until('setWebhook', () => telegram.webhook() !== undefined);
      const secret = telegram.webhook()?.secret_token ?? '';
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
      expect(daemon.platformState('telegram', 'webhook_secret')).toBe(secret);

      const before = model.requests.length;
      const json = { 'content-type': 'application/json' };
      const forged = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update('forged, no secret')), json);
      expect(forged.status).toBe(401);
      const wrong = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update('forged, wrong secret')), {
        ...json,
        'x-telegram-bot-api-secret-token': 'guessed-secret',
      });
      expect(wrong.status).toBe(401);
      expect(daemon.inboxTotal()).toBe(0);
      expect(model.requests.length).toBe(before);

      // the webhook route skips the API's Host check (Telegram sends the public name): the secret decides
      const viaProxy = await rawRequest(
        daemon.url,
        'POST',
        TG_PATH,
        { ...json, host: 'bot.example.invalid', 'x-telegram-bot-api-secret-token': secret },
        JSON.stringify(update('through the proxy')),
      );
      expect(viaProxy?.status).toBe(200);
      // Telegram itself sends the secret it was given: answered
      expect(await telegram.deliverWebhook(update('the real one'), daemon.url)).toBe(200);
      await until('the answer', () => telegram.sent.some((m) => m.text.includes('answered')));
      expect(daemon.logText()).not.toContain(secret);
    } finally {
      await daemon.stop();
    }
  });

  it('keeps the same secret across a restart', async () => {
    const first = telegram.webhook()?.secret_token;
    telegram.reset();
    const daemon = await start();
    try {
      await until('setWebhook', () => telegram.webhook() !== undefined);
      expect(telegram.webhook()?.secret_token).toBe(first);
    } finally {
      await daemon.stop();
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a request without the secret before reading its body', async () => {
    home = undefined;
    const daemon = await start();
    try {
      const socket = await openSocket(daemon.url);
      const response = readResponse(socket);
      // 64 MB promised, none sent: the answer comes anyway
      socket.write(
        head('POST', TG_PATH, {
          host: '127.0.0.1',
          'content-type': 'application/json',
          'content-length': 64 * 1024 * 1024,
        }),
      );
      expect((await response)?.status).toBe(401);
      socket.destroy();
    } finally {
      await daemon.stop();
    }
  });

  it('Slack HTTP mode refuses an unsigned request (exempt from the API key, not from its signature)', async () => {
    home = undefined;
    const daemon = await start();
    try {
      const body = slack.eventCallback(
        slack.messageEvent({ channel: 'D0ALLOWED1', user: 'U0ALLOWED1', text: 'unsigned', channelType: 'im' }),
      );
      const res = await post(`${daemon.url}/slack/events`, JSON.stringify(body), {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(401);
      expect(daemon.inboxTotal()).toBe(0);
    } finally {
      await daemon.stop();
    }
  });
});
