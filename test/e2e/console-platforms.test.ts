// The console's overview with WhatsApp, Matrix, Signal and email (issue #33): one `hermes gateway
// run` (the built CLI) with all four configured against their fakes on 127.0.0.1, logged in to the
// console with API_SERVER_KEY; the overview data the console page reads (/console/api/overview)
// lists each with its state, and a platform whose server refuses the credentials shows its failure
// (state `error`, the server's reason, the password never shown), then its reconnect.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type FakeImap, startFakeImap } from '../fakes/email-imap.js';
import { type FakeSmtp, startFakeSmtp } from '../fakes/email-smtp.js';
import { type FakeMatrix, startFakeMatrix } from '../fakes/matrix-server.js';
import { type FakeSignal, startFakeSignal } from '../fakes/signal-server.js';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitForValue } from '../helpers/wait-for.js';

const KEY = 'sk-console-platforms-key-0123456789';
const BOT = 'hermes@example.test';
const MAIL_PASSWORD = 'console-e2e-app-password';
const PLATFORMS = ['whatsapp', 'matrix', 'signal', 'email'] as const;

interface PlatformView {
  state: string;
  since: number;
  error?: string;
  reconnects: number;
}
interface Overview {
  version: string;
  uptime_s: number;
  platforms: Record<string, PlatformView>;
}

const openai = useFakeOpenAI();
let whatsapp: FakeWhatsApp;
let matrix: FakeMatrix;
let signal: FakeSignal;
let imap: FakeImap;
let smtp: FakeSmtp;
let gw: RunningGateway;
let cookie = '';

async function overview(): Promise<Overview> {
  const res = await fetch(`${gw.url}/console/api/overview`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`overview answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Overview;
}
const states = (o: Overview) => Object.fromEntries(PLATFORMS.map((p) => [p, o.platforms[p]?.state]));

beforeAll(async () => {
  whatsapp = await startFakeWhatsApp();
  matrix = await startFakeMatrix();
  signal = await startFakeSignal();
  imap = await startFakeImap({ user: BOT, password: MAIL_PASSWORD });
  smtp = await startFakeSmtp({ user: BOT, password: MAIL_PASSWORD });
  const home = tempHome();
  const platforms = {
    whatsapp: { api_url: whatsapp.apiUrl },
    matrix: {},
    signal: {},
    email: { imap_security: 'none', smtp_security: 'none' },
  };
  writeFileSync(join(home, 'config.yaml'), stringify({ gateway: { platforms } }));
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    API_SERVER_KEY: KEY,
    WHATSAPP_ACCESS_TOKEN: whatsapp.token,
    WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
    WHATSAPP_APP_SECRET: whatsapp.appSecret,
    WHATSAPP_VERIFY_TOKEN: 'console-verify-token',
    MATRIX_HOMESERVER_URL: matrix.url,
    MATRIX_ACCESS_TOKEN: matrix.accessToken,
    MATRIX_USER_ID: matrix.bot.userId,
    SIGNAL_HTTP_URL: signal.url,
    SIGNAL_ACCOUNT: signal.account,
    EMAIL_ADDRESS: BOT,
    EMAIL_PASSWORD: MAIL_PASSWORD,
    EMAIL_IMAP_HOST: '127.0.0.1',
    EMAIL_IMAP_PORT: String(imap.port),
    EMAIL_SMTP_HOST: '127.0.0.1',
    EMAIL_SMTP_PORT: String(smtp.port),
  });
  const login = await fetch(`${gw.url}/console/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: KEY }),
  });
  expect(login.status).toBe(200);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await Promise.all([whatsapp?.close(), matrix?.close(), signal?.close(), imap?.close(), smtp?.close()]);
});

describe('the console overview with WhatsApp, Matrix, Signal and email', () => {
  it('is behind the login, and lists the four platforms connected', async () => {
    expect((await fetch(`${gw.url}/console/api/overview`)).status).toBe(401);
    const seen = await waitForValue(overview, (o) => PLATFORMS.every((p) => o.platforms[p]?.state === 'connected'), {
      what: 'the four platforms connected in the overview',
    });
    expect(states(seen)).toEqual({
      whatsapp: 'connected',
      matrix: 'connected',
      signal: 'connected',
      email: 'connected',
    });
    for (const p of PLATFORMS) {
      expect(seen.platforms[p]?.error, p).toBeUndefined();
      expect(seen.platforms[p]?.reconnects, p).toBe(0);
      expect(seen.platforms[p]?.since, p).toBeGreaterThan(0);
    }
    // what the live view gets is the same data (/health too)
    const health = (await (await fetch(`${gw.url}/health`)).json()) as { platforms: Record<string, { state: string }> };
    expect(Object.fromEntries(PLATFORMS.map((p) => [p, health.platforms[p]?.state]))).toEqual(states(seen));
  });

  it('shows the mail server refusing the credentials as email in error, the others still connected, then the reconnect', async () => {
    // reconnects are counted from states sampled every second; a scrape samples them at once, so the
    // first connection is on record before it drops (a drop inside the first second counts no reconnect)
    expect((await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    imap.refuseLogins(true);
    imap.dropConnections();
    // first the dropped connection, then the refused login as the reason
    const failed = await waitForValue(
      overview,
      (o) => o.platforms.email?.state === 'error' && o.platforms.email.error !== 'the IMAP connection closed',
      { what: 'email in error for the refused login in the overview' },
    );
    expect(failed.platforms.email?.error).toMatch(/AUTHENTICATIONFAILED|Invalid credentials|authenticat/i);
    expect(JSON.stringify(failed)).not.toContain(MAIL_PASSWORD);
    expect(states(failed)).toEqual({ whatsapp: 'connected', matrix: 'connected', signal: 'connected', email: 'error' });

    imap.refuseLogins(false);
    const back = await waitForValue(
      overview,
      (o) => o.platforms.email?.state === 'connected' && (o.platforms.email.reconnects ?? 0) >= 1,
      { what: 'email connected again, its reconnect counted, in the overview' },
    );
    expect(back.platforms.email?.error).toBeUndefined();
    expect(back.platforms.email?.reconnects).toBe(1);
    expect(back.platforms.email?.since).toBeGreaterThan(failed.platforms.email?.since ?? 0);
  });
});
