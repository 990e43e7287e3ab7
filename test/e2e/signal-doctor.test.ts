// `hermes doctor` on Signal: signal-cli's daemon is asked GET /api/v1/check at SIGNAL_HTTP_URL;
// answering passes, a daemon that is down fails naming where it looked.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSignal, startFakeSignal } from '../fakes/signal-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
let signal: FakeSignal;
beforeAll(async () => {
  signal = await startFakeSignal();
});
afterAll(async () => {
  await signal.close();
});

const doctor = (url: string) => {
  openai.server.respond(() => ({ text: 'OK' }));
  return runHermes(['doctor'], {
    env: {
      HERMES_HOME: tempHome(),
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      SIGNAL_HTTP_URL: url,
      SIGNAL_ACCOUNT: signal.account,
    },
  });
};

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('hermes doctor checks Signal', () => {
  it("passes when signal-cli's daemon answers /api/v1/check, fails naming the URL when it is down", async () => {
    const ok = await doctor(signal.url);
    expect(ok.stdout).toContain(`✓ platform signal: signal-cli's daemon answers at ${signal.url}`);
    expect(ok.code).toBe(0);
    const down = `http://127.0.0.1:${await closedPort()}`;
    const r = await doctor(down);
    expect(r.stdout).toContain(`✗ platform signal: cannot reach ${down}: ECONNREFUSED`);
    expect(r.code).toBe(1);
  });
});
