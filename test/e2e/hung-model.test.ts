// A model server that accepts the connection and never answers: `hermes -z` exits non-zero within
// the retry budget saying it timed out, and a Telegram user of `hermes gateway run` gets an error
// reply within it while /health stays ok. Both run at once against the same silent server. The
// defaults (model.timeout_s 50, model.retry_budget_s 55: an answer within 60 s) are asserted by
// packages/config/test/load-config.test.ts; here config.yaml sets 3 s and 7 s, so the same path
// (two attempts, each cut by its timeout, the second by the budget) takes seconds, not a minute.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
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

/** each attempt's timeout and all attempts' budget, seconds */
const TIMEOUT_S = 3;
const BUDGET_S = 7;
/** the budget plus the time to start a CLI and reply on a loaded machine */
const WITHIN_MS = (BUDGET_S + 8) * 1000;

function homeWithTimeouts(): string {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), `model:\n  timeout_s: ${TIMEOUT_S}\n  retry_budget_s: ${BUDGET_S}\n`);
  return home;
}

describe('a hung model server', () => {
  it('hermes -z and a Telegram user are both told it timed out within the retry budget; the gateway stays healthy', async () => {
    const env = (home: string) => ({
      HERMES_HOME: home,
      OPENAI_BASE_URL: silentUrl,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    const gwHome = homeWithTimeouts();
    const gw = await spawnGateway({
      ...env(gwHome),
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_ALLOWED_USERS: '42',
    });
    try {
      await waitFor(() => tg.pendingPolls() > 0, { what: 'the gateway polling Telegram' });
      const started = Date.now();
      const oneShot = runHermes(['-z', 'hello'], { env: env(homeWithTimeouts()), timeoutMs: 60_000 }).then((r) => ({
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
        { what: 'the error reply in the Telegram chat', timeoutMs: 40_000, stepMs: 250 },
      );
      // not before the budget (two attempts were waited out), and not long after it
      expect(replyMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
      expect(replyMs).toBeLessThan(WITHIN_MS);
      expect(tg.sent[0]?.text).toMatch(
        new RegExp(`did not answer in time: no answer within ${TIMEOUT_S} s.*HERMES_MODEL_TIMEOUT`),
      );
      const r = await oneShot;
      expect(r.code).toBe(1);
      expect(r.tookMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
      expect(r.tookMs).toBeLessThan(WITHIN_MS);
      expect(r.stderr).toContain(`The model server did not answer in time: no answer within ${TIMEOUT_S} s`);
      expect(r.stderr).toContain('(HERMES_MODEL_TIMEOUT)');
      expect(requests).toBeGreaterThanOrEqual(2);
      const health = (await (await fetch(`${gw.url}/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 60_000);
});
