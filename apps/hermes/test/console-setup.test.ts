// The console wired into the real daemon (buildGatewayApp, in-process, on 127.0.0.1): served on
// loopback by default from HERMES_CONSOLE_DIST, its ports reading the real store, the log ring fed
// by the real logger, plugin enable/disable editing config.yaml; off when gateway.console.enabled is false.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLoginLink, loginLinksPath } from '@hermes/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Daemon, startDaemon } from '../../../test/bad-input/lib/daemon.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../../test/fakes/openai-server.js';
import { runHermes } from '../../../test/helpers/run-hermes.js';

let model: FakeOpenAI;
let dist: string;
beforeAll(async () => {
  model = await startFakeOpenAI();
  dist = join(mkdtempSync(join(tmpdir(), 'hermes-console-dist-')), 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console page</title>');
});
afterAll(async () => {
  await model.close();
});

describe('the console in gateway run', () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemon({ modelUrl: model.url, env: { HERMES_CONSOLE_DIST: dist } });
  });
  afterAll(async () => {
    await daemon.stop();
  });

  it('serves the page and the API on loopback after a login (the terminal tool is on), reading the real store and log', async () => {
    const page = await fetch(`${daemon.url}/`);
    expect(await page.text()).toContain('console page');
    expect(await (await fetch(`${daemon.url}/console/api/session`)).json()).toMatchObject({
      loggedIn: false,
      loginRequired: true,
    });
    // what `hermes console url` makes: a one-time link
    const link = await fetch(`${daemon.url}/console/login?token=${createLoginLink(loginLinksPath(daemon.home))}`, {
      redirect: 'manual',
    });
    expect(link.status).toBe(303);
    const cookie = String(link.headers.get('set-cookie')).split(';')[0] ?? '';
    const session = await fetch(`${daemon.url}/console/api/session`, { headers: { cookie } });
    const { csrf, actor } = (await session.json()) as { csrf: string; actor: string };
    const get = async (path: string) => (await fetch(`${daemon.url}${path}`, { headers: { cookie } })).json();
    const post = async (path: string, body: unknown) =>
      fetch(`${daemon.url}${path}`, {
        method: 'POST',
        headers: { cookie, 'x-hermes-csrf': csrf, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const logs = (await get('/console/api/logs?limit=1000')) as { records: { msg: string }[] };
    expect(logs.records.some((r) => r.msg.startsWith('gateway listening on'))).toBe(true);

    const asked = await daemon.app.rt.store.pairing.request('telegram', 'someone', 'Sam');
    if ('refused' in asked) throw new Error('refused');
    expect(((await get('/console/api/pairing')) as { pending: unknown[] }).pending).toHaveLength(1);
    expect((await post('/console/api/pairing/deny', { platform: 'telegram', code: asked.code })).status).toBe(200);
    expect(((await get('/console/api/pairing')) as { pending: unknown[] }).pending).toEqual([]);

    const plugins = (await get('/console/api/plugins')) as { plugins: { name: string; enabled: boolean }[] };
    expect(plugins.plugins.find((p) => p.name === 'calculator')).toMatchObject({ kind: 'standalone' });
    const enabled = await post('/console/api/plugins/enable', { name: 'calculator' });
    expect(await enabled.json()).toEqual({ ok: true, restartNeeded: true });
    expect(readFileSync(join(daemon.home, 'config.yaml'), 'utf8')).toMatch(/enabled:\s*\n?\s*-?\s*\[?calculator/);
    expect((await post('/console/api/plugins/enable', { name: 'no-such-plugin' })).status).toBe(400);
    expect(daemon.logText()).toContain(`console: ${actor} plugin.enable calculator from 127.0.0.1`);

    // the Trust view: BOOT.md written after start is pending; approved in the console, the CLI
    // reads the same trust.json; a POST without the CSRF token changes nothing
    writeFileSync(join(daemon.home, 'BOOT.md'), 'Say hello.\n');
    const trust = async () => (await get('/console/api/trust')) as { items: { id: string; state: string }[] };
    expect((await trust()).items.find((i) => i.id === 'boot:BOOT.md')).toMatchObject({ state: 'new' });
    const forged = await fetch(`${daemon.url}/console/api/trust/approve`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'boot:BOOT.md' }),
    });
    expect(forged.status).toBe(403);
    expect((await trust()).items.find((i) => i.id === 'boot:BOOT.md')).toMatchObject({ state: 'new' });
    const approved = await post('/console/api/trust/approve', { id: 'boot:BOOT.md' });
    expect(await approved.json()).toMatchObject({ ok: true, item: { id: 'boot:BOOT.md', state: 'approved' } });
    expect(daemon.logText()).toMatch(
      new RegExp(`console: ${actor} trust\\.approve boot:BOOT\\.md sha256 [0-9a-f]{12} from 127\\.0\\.0\\.1`),
    );
    const listed = await runHermes(['trust', 'list'], { env: { HERMES_HOME: daemon.home } });
    expect(listed.stdout).toMatch(/boot:BOOT\.md\s+approved/);
    expect((await post('/console/api/trust/revoke', { id: 'boot:BOOT.md' })).status).toBe(200);
    expect(daemon.logText()).toContain(`console: ${actor} trust.revoke boot:BOOT.md from 127.0.0.1`);
    expect((await runHermes(['trust', 'list'], { env: { HERMES_HOME: daemon.home } })).stdout).toMatch(
      /boot:BOOT\.md\s+pending \(new\)/,
    );
    expect((await post('/console/api/trust/approve', { id: 'plugin:nope' })).status).toBe(404);
  });
});

describe('the terminal tool off (agent.toolsets without it)', () => {
  it('a loopback request is the operator: no login asked', async () => {
    const daemon = await startDaemon({
      modelUrl: model.url,
      env: { HERMES_CONSOLE_DIST: dist },
      config: { agent: { toolsets: ['web', 'memory'] } },
    });
    try {
      expect(await (await fetch(`${daemon.url}/console/api/session`)).json()).toMatchObject({
        loggedIn: true,
        loginRequired: false,
        actor: 'loopback',
      });
    } finally {
      await daemon.stop();
    }
  });
});

describe('gateway.console.enabled: false', () => {
  it('serves no console', async () => {
    const daemon = await startDaemon({
      modelUrl: model.url,
      env: { HERMES_CONSOLE_DIST: dist },
      config: { gateway: { console: { enabled: false } } },
    });
    try {
      expect((await fetch(`${daemon.url}/console/api/session`)).status).toBe(404);
    } finally {
      await daemon.stop();
    }
  });
});
