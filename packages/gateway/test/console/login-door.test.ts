// The console is an operator's door (issue #28): on loopback a login is required unless the
// terminal tool is off; a one-time link of `hermes console url` logs in once; actions are audited
// with the session's actor and the client's address.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginLink, LOGIN_LINK_TTL_MS, loginLinksPath } from '../../src/console/login-links.js';
import { type ConsoleHarness, startConsole } from './console-harness.js';

let h: ConsoleHarness;
const links = loginLinksPath(mkdtempSync(join(tmpdir(), 'hermes-links-')));

beforeAll(async () => {
  h = await startConsole({ loopbackOperator: false, loginLinks: links });
});
afterAll(async () => {
  await h.stop();
});

describe('console on loopback with the terminal tool on', () => {
  it('asks for a login: no session on the fly, the actions refused', async () => {
    const res = await h.request('GET', '/console/api/session');
    expect(res.json()).toEqual({ loggedIn: false, loginRequired: true, csrf: null, actor: null });
    expect(res.headers['set-cookie']).toBeUndefined();
    // what a script on this machine did before: read a CSRF token, approve a stranger's code
    const approve = await h.request('POST', '/console/api/pairing/approve', {
      body: { platform: 'telegram', code: 'ABCD2345' },
    });
    expect(approve.statusCode).toBe(401);
  });

  it('a one-time link logs in once: a session cookie, then the link is spent', async () => {
    const token = createLoginLink(links);
    const first = await h.request('GET', `/console/login?token=${token}`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/console/');
    const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
    const session = await h.request('GET', '/console/api/session', { cookie });
    expect(session.json()).toMatchObject({
      loggedIn: true,
      loginRequired: true,
      actor: expect.stringMatching(/^link:[0-9a-f]{6}$/),
    });
    const again = await h.request('GET', `/console/login?token=${token}`);
    expect(again.statusCode).toBe(401);
    expect(again.body).toMatch(/wrong, used or expired: run `hermes console url`/);
  });

  it('refuses an expired link and a made-up one', async () => {
    const old = createLoginLink(links, Date.now() - LOGIN_LINK_TTL_MS - 1);
    expect((await h.request('GET', `/console/login?token=${old}`)).statusCode).toBe(401);
    expect((await h.request('GET', '/console/login?token=made-up')).statusCode).toBe(401);
    expect((await h.request('GET', '/console/login')).statusCode).toBe(401);
  });

  it("audits an action with the session's actor and the client's address", async () => {
    const cookieOf = async () => {
      const res = await h.request('GET', `/console/login?token=${createLoginLink(links)}`);
      return String(res.headers['set-cookie']).split(';')[0] ?? '';
    };
    const cookie = await cookieOf();
    const { csrf, actor } = (await h.request('GET', '/console/api/session', { cookie })).json() as {
      csrf: string;
      actor: string;
    };
    const res = await h.request('POST', '/console/api/sessions/reset', {
      cookie,
      csrf,
      body: { key: 'telegram:1:dm' },
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(h.logText()).toContain(
      `"actor":"${actor}","action":"session.reset","target":"telegram:1:dm","ip":"127.0.0.1"`,
    );
  });
});
