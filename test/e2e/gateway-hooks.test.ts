// Gateway hooks end to end: `hermes gateway run` with hooks in HERMES_HOME/hooks, real grammy
// against the fake Bot API, the real openai client against the fake model.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scriptToolTurn } from '../fakes/openai-reply.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { quietPeriod, waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken5678';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42',
  ...extra,
});

/** The gateway's log file (the console is off when stderr is not a terminal). */
function gatewayLog(home: string): string {
  const file = join(home, 'logs', 'gateway.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

function writeHook(home: string, name: string, events: string[], handler: string): void {
  const dir = join(home, 'hooks', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'HOOK.yaml'),
    `name: ${name}\ndescription: test hook ${name}\nevents:\n${events.map((e) => `  - "${e}"`).join('\n')}\n`,
  );
  writeFileSync(join(dir, 'handler.ts'), handler);
}

/** `hermes hooks install boot-md`: copied and approved, so the gateway loads it. */
async function installBootMd(home: string): Promise<void> {
  const r = await runHermes(['hooks', 'install', 'boot-md'], { env: { HERMES_HOME: home } });
  expect(r.code, r.stderr).toBe(0);
}

/** The operator approves BOOT.md as it is now (boot-md runs only an approved BOOT.md). */
async function approveBootMd(home: string): Promise<void> {
  const r = await runHermes(['trust', 'approve', 'boot:BOOT.md', '--yes'], { env: { HERMES_HOME: home } });
  expect(r.code, r.stderr).toBe(0);
}

const LOGGER = `
import { appendFileSync } from 'node:fs';
import type { GatewayHookApi } from '@hermes/plugin-sdk';
export function handle(event: string, context: Record<string, unknown>, hermes: GatewayHookApi) {
  appendFileSync(process.env.HOOK_LOG as string, JSON.stringify({ event, context, name: hermes.name }) + '\\n');
}
`;

describe('gateway hooks in hermes gateway run', () => {
  it('a logger hook sees every event with the documented keys; throwing and hanging hooks never hold a reply', async () => {
    const home = tempHome();
    const log = join(home, 'events.jsonl');
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  hook_timeout_s: 1\n');
    writeHook(home, 'a-logger', ['gateway:startup', 'session:*', 'agent:*', 'command:*'], LOGGER);
    writeHook(
      home,
      'b-thrower',
      ['agent:*', 'command:*'],
      `export function handle() { throw new Error('hook boom'); }\n`,
    );
    writeHook(home, 'c-hanger', ['agent:start'], `export async function handle() { await new Promise(() => {}); }\n`);
    // an invalid folder is skipped with a reason, the others still load
    mkdirSync(join(home, 'hooks', 'd-broken'), { recursive: true });
    writeFileSync(join(home, 'hooks', 'd-broken', 'HOOK.yaml'), 'name: broken\ndescription: x\nevents: [agent:ends]\n');
    // inside the file tools' default roots (HERMES_HOME itself is not one)
    mkdirSync(join(home, 'cache'), { recursive: true });
    writeFileSync(join(home, 'cache', 'notes.txt'), 'the README of the read_file call');
    // gateway hooks load only with consent (test/security/gateway-hook-consent.test.ts)
    expect((await runHermes(['hooks', 'approve', '--all'], { env: { HERMES_HOME: home } })).code).toBe(0);
    const gw = await spawnGateway(env(home, { HOOK_LOG: log }));
    try {
      await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('gateway:startup'), {
        what: 'gateway:startup',
      });
      openai.server.script(...scriptToolTurn('read_file', { path: join(home, 'cache', 'notes.txt') }, 'read it'));
      const sentAt = Date.now();
      tg.pushMessage({ chatId: 42, userId: 42, text: 'read my notes' });
      await waitFor(() => tg.sent.length > 0, { what: 'the answer' });
      // the hanging hook (timeout 1 s) and the throwing one do not hold the reply
      expect(Date.now() - sentAt).toBeLessThan(3_000);
      expect(tg.sent[0]?.text).toBe('read it');
      tg.pushMessage({ chatId: 42, userId: 42, text: '/new' });
      await waitFor(() => tg.sent.length > 1, { what: 'the /new reply' });
      await waitFor(() => readFileSync(log, 'utf8').includes('command:new'), { what: 'command:new logged' });
      await waitFor(() => readFileSync(log, 'utf8').includes('session:reset'), { what: 'session:reset logged' });
      await waitFor(() => gatewayLog(home).includes('gateway:c-hanger on agent:start timed out'), {
        what: 'the hanging hook reported',
      });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const events = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; context: Record<string, unknown>; name: string });
    const first = (event: string) => events.find((e) => e.event === event)?.context;
    expect(events.every((e) => e.name === 'a-logger')).toBe(true);
    // the web chat runs too: the console is on by default on loopback
    expect(first('gateway:startup')).toEqual({ platforms: ['telegram', 'web'] });
    expect(Object.keys(first('session:start') ?? {}).sort()).toEqual([
      'platform',
      'session_id',
      'session_key',
      'user_id',
    ]);
    expect(first('agent:start')).toMatchObject({ platform: 'telegram', user_id: '42', message: 'read my notes' });
    expect(Object.keys(first('agent:start') ?? {}).sort()).toEqual(['message', 'platform', 'session_id', 'user_id']);
    expect(first('agent:step')).toMatchObject({ iteration: 1, tool_names: ['read_file'] });
    expect(first('agent:end')).toMatchObject({ message: 'read my notes', response: 'read it' });
    expect(first('command:new')).toEqual({ platform: 'telegram', user_id: '42', command: 'new', args: '' });
    expect(Object.keys(first('session:reset') ?? {}).sort()).toEqual(['platform', 'session_key', 'user_id']);
    const stderr = gatewayLog(home)
      .split('\n')
      .filter(Boolean)
      .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg))
      .join('\n');
    expect(stderr).toContain(
      'hook gateway_event callback of gateway:b-thrower on agent:start failed: hook boom; skipped',
    );
    expect(stderr).toContain(
      'hook gateway_event callback of gateway:c-hanger on agent:start timed out after 1000 ms; skipped',
    );
    expect(stderr).toMatch(
      /gateway hook folder skipped: .*d-broken.*unknown gateway event "agent:ends" \(did you mean "agent:end"\?\)/,
    );
  });

  it('boot-md: the checklist runs after start-up without delaying it and reaches the home channel', async () => {
    const home = tempHome();
    await installBootMd(home);
    writeFileSync(join(home, 'BOOT.md'), '# Startup\n1. Tell me on Telegram that the overnight jobs failed.\n');
    await approveBootMd(home);
    const [call, final] = scriptToolTurn(
      'send_message',
      { action: 'send', target: 'telegram', message: 'Overnight: 2 jobs failed' },
      'Reported.',
    );
    openai.server.script({ ...call, delayMs: 1_500 }, final);
    const gw = await spawnGateway(env(home, { TELEGRAM_HOME_CHANNEL: '42' }));
    try {
      // healthy at once: the agent's 1.5 s model call has not come back yet
      const health = await fetch(`${gw.url}/health`);
      expect(health.status).toBe(200);
      expect(tg.sent).toHaveLength(0);
      await waitFor(() => tg.sent.length > 0, { what: 'the checklist message' });
      expect(tg.sent[0]).toMatchObject({ chat_id: 42, text: 'Overnight: 2 jobs failed' });
      const request = openai.server.requests.find((r) => r.path.endsWith('/chat/completions'));
      expect(JSON.stringify(request?.body?.messages)).toContain('Tell me on Telegram that the overnight jobs failed.');
      await waitFor(() => gatewayLog(home).includes('boot-md completed: Reported.'), { what: 'the outcome logged' });
    } finally {
      await gw.stop();
    }
    expect(gatewayLog(home)).toMatch(/Running BOOT\.md \(\d+ chars\)/);
  });

  it('boot-md: [SILENT] sends nothing; a missing BOOT.md runs nothing', async () => {
    const home = tempHome();
    await installBootMd(home);
    writeFileSync(join(home, 'BOOT.md'), 'Check the logs. If all is well, say nothing.\n');
    await approveBootMd(home);
    openai.server.script({ text: '[SILENT]' });
    const gw = await spawnGateway(env(home, { TELEGRAM_HOME_CHANNEL: '42' }));
    try {
      await waitFor(() => gatewayLog(home).includes('boot-md completed (nothing to report)'), {
        what: 'the outcome logged',
      });
      expect(tg.sent).toHaveLength(0);
    } finally {
      await gw.stop();
    }
    const quiet = tempHome();
    await installBootMd(quiet);
    const before = openai.server.requests.length;
    const gw2 = await spawnGateway(env(quiet));
    try {
      await quietPeriod(500, 'a BOOT.md run would start now'); // the hook logs nothing when it has nothing to run
    } finally {
      await gw2.stop();
    }
    expect(openai.server.requests.length).toBe(before);
    expect(gatewayLog(quiet)).not.toContain('Running BOOT.md');
  });

  it('hermes hooks install copies an example hook; hooks list shows it; a second install needs --force', async () => {
    const home = tempHome();
    const install = await runHermes(['hooks', 'install', 'long-task-alert'], { env: { HERMES_HOME: home } });
    expect(install.code, install.stderr).toBe(0);
    expect(readFileSync(join(home, 'hooks', 'long-task-alert', 'HOOK.yaml'), 'utf8')).toContain('agent:step');
    const list = await runHermes(['hooks', 'list', '--json'], { env: { HERMES_HOME: home } });
    const listed = JSON.parse(list.stdout) as { gateway: { name: string; events: string[]; error: string | null }[] };
    expect(listed.gateway).toEqual([
      expect.objectContaining({ name: 'long-task-alert', events: ['agent:step'], consent: 'approved' }),
    ]);
    const again = await runHermes(['hooks', 'install', 'long-task-alert'], { env: { HERMES_HOME: home } });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; use --force');
    expect(
      (await runHermes(['hooks', 'install', 'long-task-alert', '--force'], { env: { HERMES_HOME: home } })).code,
    ).toBe(0);
    const unknown = await runHermes(['hooks', 'install', 'nope'], { env: { HERMES_HOME: home } });
    expect(unknown.stderr).toContain('available: boot-md, command-logger, long-task-alert, session-webhook');
  });
});
