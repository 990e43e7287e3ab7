// The console's Trust view through its routes: list, approve and revoke through the port, behind
// the CSRF check, each action audited with its actor and the client's address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, startConsole } from './console-harness.js';

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
const stateOf = async (id: string) =>
  (
    (await h.request('GET', '/console/api/trust', auth)).json() as { items: { id: string; state: string }[] }
  ).items.find((i) => i.id === id)?.state;

describe('console trust', () => {
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
