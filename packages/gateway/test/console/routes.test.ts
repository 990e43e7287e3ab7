// The console's routes on a loopback gateway with no token (no login asked): every route's answer,
// the actions through the store and the command code, each action logged with its actor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, LEAKY, startConsole } from './console-harness.js';

let h: ConsoleHarness;
let auth: { cookie: string; csrf: string };

beforeAll(async () => {
  h = await startConsole();
  auth = await h.login();
});
afterAll(async () => {
  await h.stop();
});

const post = (url: string, body: unknown) => h.request('POST', url, { ...auth, body });

describe('console on loopback without a token', () => {
  it('opens a loopback session on the fly: loggedIn, a CSRF token, the cookie set', async () => {
    const res = await h.request('GET', '/console/api/session');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ loggedIn: true, loginRequired: false, csrf: expect.any(String), actor: 'loopback' });
    expect(String(res.headers['set-cookie'])).toMatch(
      /^hermes_console=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/,
    );
    // with the cookie: the same session, nothing set again
    const again = await h.request('GET', '/console/api/session', { cookie: auth.cookie });
    expect(again.json()).toMatchObject({ csrf: auth.csrf });
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('serves the pages and assets with the CSP and the other headers; nothing outside dist', async () => {
    for (const [url, text] of [
      ['/', 'Hermes console'],
      ['/chat', 'Hermes chat'],
      ['/console/assets/console.js', 'console.log'],
    ] as const) {
      const res = await h.request('GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain(text);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    expect((await h.request('GET', '/console/assets/../outside.txt')).statusCode).not.toBe(200);
    expect((await h.request('GET', '/console/assets/%2e%2e/outside.txt')).body).not.toContain('not served');
    expect((await h.request('GET', '/console/assets/missing.js')).statusCode).toBe(404);
  });

  it('overview: version, uptime, platforms with their reconnects', async () => {
    const res = await h.request('GET', '/console/api/overview');
    expect(res.json()).toEqual({
      version: '9.9.9',
      uptime_s: expect.any(Number),
      platforms: { memory: { state: 'connected', since: expect.any(Number), reconnects: 0 } },
    });
  });

  it('pairing: pending, approved and the env allowlists; approve, deny, revoke', async () => {
    const a = h.store.pairing.request('telegram', 'stranger-a', 'Ann');
    const b = h.store.pairing.request('telegram', 'stranger-b', 'Bob');
    if ('refused' in a || 'refused' in b) throw new Error('refused');
    const listed = (await h.request('GET', '/console/api/pairing')).json() as Record<string, unknown>;
    expect(listed.pending).toHaveLength(2);
    expect(listed.allowlists).toEqual({ telegram: ['11', '22'], all: ['ops'] });

    const approved = await post('/console/api/pairing/approve', { platform: 'telegram', code: a.code });
    expect(approved.json()).toEqual({ ok: true, userId: 'stranger-a' });
    expect(h.store.pairing.isApproved('telegram', 'stranger-a')).toBe(true);
    expect((await post('/console/api/pairing/approve', { platform: 'telegram', code: a.code })).statusCode).toBe(404);

    expect((await post('/console/api/pairing/deny', { platform: 'telegram', code: b.code })).json()).toEqual({
      ok: true,
    });
    expect((await post('/console/api/pairing/deny', { platform: 'telegram', code: b.code })).statusCode).toBe(404);

    const after = (await h.request('GET', '/console/api/pairing')).json() as {
      pending: unknown[];
      approved: unknown[];
    };
    expect(after.pending).toEqual([]);
    expect(after.approved).toEqual([
      { platform: 'telegram', userId: 'stranger-a', userName: 'Ann', approvedAt: expect.any(Number) },
    ]);

    expect((await post('/console/api/pairing/revoke', { platform: 'telegram', userId: 'stranger-a' })).json()).toEqual({
      ok: true,
      revoked: true,
    });
    expect(h.store.pairing.isApproved('telegram', 'stranger-a')).toBe(false);
    expect(h.logText()).toMatch(/"actor":"loopback","action":"pairing.approve","target":"telegram:stranger-a"/);
    expect(h.logText()).toContain('console: loopback pairing.deny telegram:');
    expect(h.logText()).toContain('console: loopback pairing.revoke telegram:stranger-a');
  });

  it('a bad action body gets 400 naming the fields', async () => {
    const res = await post('/console/api/pairing/approve', { platform: 'telegram' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringContaining('platform and code') });
  });

  it('sessions: the list (search too), one transcript redacted, stop and reset as /stop and /new', async () => {
    const s = h.store.sessions.create({ key: 'memory:c1:dm', platform: 'memory', title: 'hello' });
    h.store.transcripts.append(s.id, [
      { role: 'user', content: `my key is ${LEAKY} about zebras` },
      { role: 'assistant', content: 'noted' },
    ]);
    const list = (await h.request('GET', '/console/api/sessions?limit=10')).json() as { sessions: unknown[] };
    expect(list.sessions).toContainEqual({
      id: s.id,
      key: 'memory:c1:dm',
      platform: 'memory',
      title: 'hello',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      endedAt: null,
      running: false,
      messages: 2,
    });
    const found = (await h.request('GET', '/console/api/sessions?q=zebras')).json() as { sessions: { id: string }[] };
    expect(found.sessions.map((x) => x.id)).toEqual([s.id]);
    expect(((await h.request('GET', '/console/api/sessions?q=giraffes')).json() as { sessions: [] }).sessions).toEqual(
      [],
    );

    const one = await h.request('GET', `/console/api/sessions/${s.id}`);
    expect(one.json()).toMatchObject({ session: { id: s.id }, messages: [{ role: 'user' }, { role: 'assistant' }] });
    expect(one.body).not.toContain(LEAKY);
    expect(one.body).toContain('[REDACTED]');
    expect((await h.request('GET', '/console/api/sessions/sess_nope')).statusCode).toBe(404);

    expect((await post('/console/api/sessions/stop', { key: 'memory:c1:dm' })).json()).toEqual({ stopped: false });
    expect((await post('/console/api/sessions/reset', { key: 'memory:c1:dm' })).json()).toEqual({ ok: true });
    expect(h.store.sessions.get(s.id)?.endedAt).not.toBeNull();
    expect(h.logText()).toContain('console: loopback session.reset memory:c1:dm');
  });

  it('plugins: plugins, shell hooks, gateway hooks; enable/disable through the port', async () => {
    const res = (await h.request('GET', '/console/api/plugins')).json();
    expect(res).toEqual({
      plugins: [{ name: 'calculator', kind: 'standalone', state: 'enabled', enabled: true }],
      shellHooks: [{ event: 'pre_tool_call', command: '~/hooks/check.sh', state: 'registered' }],
      gatewayHooks: [{ name: 'boot-md', events: ['gateway:startup'], state: 'running' }],
    });
    expect((await post('/console/api/plugins/disable', { name: 'calculator' })).json()).toEqual({
      ok: true,
      restartNeeded: true,
    });
    expect((await post('/console/api/plugins/enable', { name: 'calculator' })).statusCode).toBe(200);
    expect(h.pluginToggles).toEqual([
      { name: 'calculator', on: false },
      { name: 'calculator', on: true },
    ]);
    const unknown = await post('/console/api/plugins/enable', { name: 'nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'no plugin named "nope"' });
  });

  it('logs: the ring buffer by level and limit, secrets masked', async () => {
    const res = (await h.request('GET', '/console/api/logs?level=info&limit=500')).json() as {
      records: { msg: string; level: string; component?: string }[];
    };
    expect(res.records.length).toBeGreaterThan(0);
    expect(res.records).toContainEqual({
      time: expect.any(Number),
      level: 'info',
      msg: expect.stringMatching(/^console: loopback plugin.disable calculator from /),
      component: 'console',
    });
    const two = (await h.request('GET', '/console/api/logs?limit=2')).json() as { records: unknown[] };
    expect(two.records).toHaveLength(2);
    expect((await h.request('GET', '/console/api/logs?level=loud')).statusCode).toBe(400);
  });
});

const stateOf = async (id: string) =>
  (
    (await h.request('GET', '/console/api/trust', auth)).json() as { items: { id: string; state: string }[] }
  ).items.find((i) => i.id === id)?.state;

describe('console trust (the Trust page): list, approve and revoke through the port, CSRF-checked and audited', () => {
  it('lists the pending and approved items with their hash, and says a restart applies a change', async () => {
    const res = await h.request('GET', '/console/api/trust', auth);
    expect(res.json()).toEqual({
      items: [
        { id: 'boot:BOOT.md', what: 'BOOT.md', state: 'new', sha256: 'ab'.repeat(32) },
        { id: 'skill:notes', what: 'skill notes', state: 'approved', sha256: 'cd'.repeat(32) },
      ],
      appliesAt: 'next start',
    });
  });

  it('refuses an approve without the CSRF token and changes nothing', async () => {
    const res = await h.request('POST', '/console/api/trust/approve', {
      cookie: auth.cookie,
      body: { id: 'boot:BOOT.md' },
    });
    expect(res.statusCode).toBe(403);
    expect(await stateOf('boot:BOOT.md')).toBe('new');
    expect(h.logText()).not.toContain('trust.approve');
  });

  it('approves and revokes through the port, each audited with actor and address', async () => {
    const approved = await post('/console/api/trust/approve', { id: 'boot:BOOT.md' });
    expect(approved.json()).toMatchObject({ ok: true, item: { id: 'boot:BOOT.md', state: 'approved' } });
    expect(await stateOf('boot:BOOT.md')).toBe('approved');
    expect(h.logText()).toContain(
      `"actor":"loopback","action":"trust.approve","target":"boot:BOOT.md sha256 ${'ab'.repeat(6)}","ip":"127.0.0.1"`,
    );
    expect((await post('/console/api/trust/revoke', { id: 'skill:notes' })).json()).toMatchObject({ ok: true });
    expect(await stateOf('skill:notes')).toBe('new');
    expect(h.logText()).toContain('"actor":"loopback","action":"trust.revoke","target":"skill:notes","ip":"127.0.0.1"');
  });

  it('answers 404 for an unknown item or a missing approval, 400 without an id', async () => {
    expect((await post('/console/api/trust/approve', { id: 'plugin:nope' })).statusCode).toBe(404);
    expect((await post('/console/api/trust/revoke', { id: 'plugin:nope' })).statusCode).toBe(404);
    expect((await post('/console/api/trust/approve', {})).statusCode).toBe(400);
  });
});
