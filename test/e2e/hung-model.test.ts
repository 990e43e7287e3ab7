// A model server that accepts the connection and never answers, with the default timeouts
// (model.timeout_s 50, model.retry_budget_s 55): `hermes -z` exits non-zero within 60 s saying it
// timed out, and a Telegram user of `hermes gateway run` gets an error reply within 60 s while
// /health stays ok. Both run at once against the same silent server, so the file takes one minute.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
let tg: FakeTelegram;
let silent: Server;
let silentUrl = '';
let requests = 0;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
  silent = createServer(() => {
    requests += 1; // read nothing, answer nothing
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  await tg.close();
});

describe('a hung model server, default timeouts', () => {
  it('hermes -z and a Telegram user are both told it timed out within 60 s; the gateway stays healthy', async () => {
    const env = (home: string) => ({
      HERMES_HOME: home,
      OPENAI_BASE_URL: silentUrl,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    const gwHome = tempHome();
    const gw = await spawnGateway({
      ...env(gwHome),
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_ALLOWED_USERS: '42',
    });
    try {
      await waitFor(() => tg.pendingPolls() > 0, { what: 'the gateway polling Telegram' });
      const started = Date.now();
      const oneShot = runHermes(['-z', 'hello'], { env: env(tempHome()), timeoutMs: 90_000 }).then((r) => ({
        ...r,
        tookMs: Date.now() - started,
      }));
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hello?' });
      let replyMs = 0;
      await waitFor(
        async () => {
          // /health answers at once while the turn waits on the model
          const health = (await (await fetch(`${gw.url}/health`)).json()) as { status: string };
          expect(health.status).toBe('ok');
          if (tg.sent.length === 0) return false;
          replyMs = Date.now() - started;
          return true;
        },
        { what: 'the error reply in the Telegram chat', timeoutMs: 70_000, stepMs: 500 },
      );
      expect(replyMs).toBeLessThan(60_000);
      expect(tg.sent[0]?.text).toMatch(/did not answer in time: no answer within 50 s.*HERMES_MODEL_TIMEOUT/);
      const r = await oneShot;
      expect(r.code).toBe(1);
      expect(r.tookMs).toBeLessThan(60_000);
      expect(r.stderr).toContain('The model server did not answer in time: no answer within 50 s');
      expect(r.stderr).toContain('(HERMES_MODEL_TIMEOUT)');
      expect(requests).toBeGreaterThanOrEqual(2);
      const health = (await (await fetch(`${gw.url}/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 120_000);
});
