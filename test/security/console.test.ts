// The operator console on a non-loopback host (built on 0.0.0.0, driven by inject with a Host the
// guard accepts): every data route and action needs a login (401), a wrong token is refused and
// never logged, the session cookie's flags, CSRF (header and Origin: a forged cross-site form POST
// gets 403), the CSP and the other headers, and secrets never in an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY,
  type ConsoleHarness,
  LEAKY,
  PUBLIC_HOST,
  SECRET_TOKEN,
  startConsole,
} from '../../packages/gateway/test/console/console-harness.js';

const GETS = [
  '/console/api/overview',
  '/console/api/events',
  '/console/api/pairing',
  '/console/api/sessions',
  '/console/api/sessions/sess_x',
  '/console/api/plugins',
  '/console/api/logs',
];
const POSTS = [
  '/console/api/pairing/approve',
  '/console/api/pairing/deny',
  '/console/api/pairing/revoke',
  '/console/api/sessions/stop',
  '/console/api/sessions/reset',
  '/console/api/plugins/enable',
  '/console/api/plugins/disable',
];

let h: ConsoleHarness;
beforeAll(async () => {
  h = await startConsole({ host: '0.0.0.0', apiKey: API_KEY, token: SECRET_TOKEN });
});
afterAll(async () => {
  await h.stop();
});

describe('console on a non-loopback host', () => {
  it('answers every data route and action 401 without a login, and says a login is required', async () => {
    expect((await h.request('GET', '/console/api/session')).json()).toEqual({
      loggedIn: false,
      loginRequired: true,
      csrf: null,
      actor: null,
    });
    for (const url of GETS) expect((await h.request('GET', url)).statusCode, url).toBe(401);
    for (const url of POSTS) {
      const res = await h.request('POST', url, { body: { platform: 'telegram', code: 'X', key: 'k', name: 'n' } });
      expect(res.statusCode, url).toBe(401);
    }
    // a made-up cookie is no session
    expect((await h.request('GET', '/console/api/overview', { cookie: 'hermes_console=forged' })).statusCode).toBe(401);
    // the API key as a bearer is not a console session
    const bearer = await h.request('GET', '/console/api/overview', { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(bearer.statusCode).toBe(401);
    // the page itself is the login page: served, with no data in it
    const page = await h.request('GET', '/');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('memory');
    expect(page.body).not.toContain('9.9.9');
  });

  it('refuses a wrong token with 401 and logs the address, never the token', async () => {
    const wrong = 'wrong-console-token-guess-42';
    const res = await h.request('POST', '/console/api/login', { body: { token: wrong } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await h.request('POST', '/console/api/login', { body: {} })).statusCode).toBe(401);
    expect(h.logText()).toContain('console: login refused from');
    expect(h.logText()).not.toContain(wrong);
  });

  it('logs in with gateway.console.token or API_SERVER_KEY: an HttpOnly, SameSite=Strict, Path=/ cookie', async () => {
    for (const token of [SECRET_TOKEN, API_KEY]) {
      const res = await h.request('POST', '/console/api/login', { body: { token } });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { csrf: string; actor: string };
      expect(body.actor).toMatch(/^token:[0-9a-f]{6}$/);
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^hermes_console=[\w-]{43};/);
      for (const flag of ['HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=43200']) expect(cookie).toContain(flag);
      expect(cookie).not.toContain('Secure');
      expect(res.body).not.toContain(token);
    }
    // behind a TLS proxy: Secure too
    const https = await h.request('POST', '/console/api/login', {
      body: { token: SECRET_TOKEN },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(String(https.headers['set-cookie'])).toContain('; Secure');
    expect(h.logText()).not.toContain(SECRET_TOKEN);
    expect(h.logText()).toMatch(/console: token:[0-9a-f]{6} login/);
  });

  it('with a session: data answers; logout ends it', async () => {
    const auth = await h.login(SECRET_TOKEN);
    expect((await h.request('GET', '/console/api/overview', { cookie: auth.cookie })).statusCode).toBe(200);
    expect((await h.request('GET', '/console/api/session', { cookie: auth.cookie })).json()).toMatchObject({
      loggedIn: true,
      loginRequired: true,
      csrf: auth.csrf,
    });
    expect((await h.request('POST', '/console/api/logout', { cookie: auth.cookie })).statusCode).toBe(403);
    const out = await h.request('POST', '/console/api/logout', { ...auth });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await h.request('GET', '/console/api/overview', { cookie: auth.cookie })).statusCode).toBe(401);
  });

  it('refuses a POST without the CSRF header, with a wrong one, or from a foreign Origin (403)', async () => {
    const auth = await h.login(SECRET_TOKEN);
    const code = h.store.pairing.request('telegram', 'victim-target');
    if ('refused' in code) throw new Error('refused');
    const body = { platform: 'telegram', code: code.code };
    for (const [what, opts] of [
      ['no header', { cookie: auth.cookie }],
      ['wrong header', { cookie: auth.cookie, csrf: 'x'.repeat(auth.csrf.length) }],
      ['foreign Origin', { ...auth, headers: { origin: 'https://evil.example' } }],
      ['other scheme', { ...auth, headers: { origin: `https://${PUBLIC_HOST}` } }],
    ] as const) {
      const res = await h.request('POST', '/console/api/pairing/approve', { ...opts, body });
      expect(res.statusCode, what).toBe(403);
      expect(res.json(), what).toEqual({ error: 'csrf' });
    }
    // a forged cross-site form POST: urlencoded body, foreign Origin, no header (the browser would
    // not even send the SameSite=Strict cookie; here it is sent anyway)
    const forged = await h.app.inject({
      method: 'POST',
      url: '/console/api/pairing/approve',
      headers: {
        host: PUBLIC_HOST,
        origin: 'https://evil.example',
        cookie: auth.cookie,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `platform=telegram&code=${code.code}`,
    });
    expect(forged.statusCode).toBe(403);
    expect(h.store.pairing.isApproved('telegram', 'victim-target')).toBe(false);
    // the same action from the page itself: its own Origin and the header
    const own = await h.request('POST', '/console/api/pairing/approve', {
      ...auth,
      body,
      headers: { origin: `http://${PUBLIC_HOST}` },
    });
    expect(own.json()).toEqual({ ok: true, userId: 'victim-target' });
    expect(h.logText()).toMatch(
      /"actor":"token:[0-9a-f]{6}","action":"pairing.approve","target":"telegram:victim-target"/,
    );
  });

  it('refuses logins from an address after 10 wrong tokens in a minute (429), the right one too', async () => {
    const login = (token: string) =>
      h.app.inject({
        method: 'POST',
        url: '/console/api/login',
        remoteAddress: '10.9.8.7',
        headers: { host: PUBLIC_HOST, 'content-type': 'application/json' },
        payload: JSON.stringify({ token }),
      });
    for (let i = 0; i < 10; i++) expect((await login(`guess-${i}-xxxxxxxx`)).statusCode).toBe(401);
    const blocked = await login(SECRET_TOKEN);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not blocked
    expect((await h.request('POST', '/console/api/login', { body: { token: SECRET_TOKEN } })).statusCode).toBe(200);
  });

  it('refuses a Host not served (421) before anything else', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/', headers: { host: 'evil.example' } });
    expect(res.statusCode).toBe(421);
  });

  it('sends the CSP and the other security headers on the pages, assets and API answers', async () => {
    for (const url of ['/', '/chat', '/console/assets/console.js', '/console/api/session', '/console/api/overview']) {
      const res = await h.request('GET', url);
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
      );
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('never shows a secret: a token in a transcript and in a log line are masked', async () => {
    const auth = await h.login(API_KEY);
    const s = h.store.sessions.create({ key: 'memory:leak:dm', platform: 'memory', title: `title ${LEAKY}` });
    h.store.transcripts.append(s.id, [{ role: 'user', content: `here: ${LEAKY} and ${SECRET_TOKEN}` }]);
    // a log line with the secret, through the gateway's logger (the console's ring is fed by it)
    h.logger.warn({ component: 'test' }, `upstream said ${LEAKY}`);
    const answers = [
      await h.request('GET', `/console/api/sessions/${s.id}`, { cookie: auth.cookie }),
      await h.request('GET', '/console/api/sessions', { cookie: auth.cookie }),
      await h.request('GET', '/console/api/overview', { cookie: auth.cookie }),
      await h.request('GET', '/console/api/logs?level=trace&limit=1000', { cookie: auth.cookie }),
      await h.request('GET', '/console/api/plugins', { cookie: auth.cookie }),
      await h.request('GET', '/console/api/pairing', { cookie: auth.cookie }),
    ];
    for (const res of answers) {
      for (const secret of [LEAKY, SECRET_TOKEN, API_KEY]) expect(res.body).not.toContain(secret);
    }
    expect(answers[0]?.body).toContain('[REDACTED]');
    const records = (answers[3]?.json() as { records: { msg: string }[] }).records;
    expect(records.filter((r) => r.msg.startsWith('upstream said'))).toEqual([
      expect.objectContaining({ msg: expect.stringContaining('[REDACTED]'), level: 'warn' }),
    ]);
  });
});
