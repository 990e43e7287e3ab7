// The gateway as a service, through the CLI as a user runs it: start, status, restart, stop, the
// single-instance lock, graceful drain, crash recovery; real processes, the Telegram fake.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { HERMES_BIN, runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { quietPeriod, waitFor, waitForValue } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenservice0001';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

const homes: string[] = [];
afterEach(async () => {
  // never leave a gateway behind, whatever a test did
  for (const home of homes.splice(0)) await runHermes(['gateway', 'stop'], { env: env(home), timeoutMs: 60_000 });
});

function env(home: string): Record<string, string> {
  return {
    HERMES_HOME: home,
    HERMES_GATEWAY_PORT: '0',
    HERMES_LOCK_DIR: join(home, 'locks'),
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: tg.apiRoot,
    TELEGRAM_ALLOWED_USERS: '*',
  };
}

function newHome(config = 'gateway:\n  drain_timeout_s: 10\n'): string {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), config);
  homes.push(home);
  return home;
}

interface Status {
  running: boolean;
  pid: number | null;
  url: string | null;
  platforms: Record<string, string>;
  stale_lock: boolean;
}

async function status(home: string): Promise<{ code: number | null; status: Status }> {
  const r = await runHermes(['gateway', 'status', '--json'], { env: env(home) });
  return { code: r.code, status: JSON.parse(r.stdout) as Status };
}

/** A live process (a zombie left for init to reap counts as gone). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** Replies per chat, as the fake recorded them. */
const repliesTo = (chatId: number) => tg.sent.filter((m) => m.chat_id === chatId).length;

describe('hermes gateway start | status | restart | stop', () => {
  it('start, status, /health, restart with a new pid, stop with no process left', async () => {
    const home = newHome();
    const started = await runHermes(['gateway', 'start'], { env: env(home), timeoutMs: 60_000 });
    expect(started.code, started.stderr).toBe(0);
    // healthy (200) before Telegram has connected: `degraded` until it has
    const first = await waitForValue(
      () => status(home),
      (s) => s.status.platforms?.telegram === 'connected',
      { what: 'status showing Telegram connected' },
    );
    expect(first.code).toBe(0);
    expect(first.status).toMatchObject({ running: true, platforms: { telegram: 'connected' } });
    const pid = first.status.pid ?? 0;
    expect(alive(pid)).toBe(true);
    expect((await fetch(`${first.status.url}/health`)).status).toBe(200);
    // where start-up time went, logged with "gateway listening" (npm run bench -- footprint reads it)
    const listening = readFileSync(join(home, 'logs', 'gateway.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"startupMs"'))
      .map((l) => JSON.parse(l) as { startupMs: Record<string, number> });
    expect(listening).toHaveLength(1);
    const phases = listening[0]?.startupMs ?? {};
    expect(Object.keys(phases)).toEqual([
      'modules',
      'lock',
      'config',
      'logger',
      'store',
      'tools',
      'plugins',
      'shell hooks',
      'gateway',
      'gateway hooks',
      'server',
      'listen',
      'platforms launched',
      'total',
    ]);
    const { total = 0, ...each } = phases;
    expect(Math.abs(Object.values(each).reduce((a, b) => a + b, 0) - total)).toBeLessThanOrEqual(14);

    const restarted = await runHermes(['gateway', 'restart'], { env: env(home), timeoutMs: 60_000 });
    expect(restarted.code, restarted.stderr).toBe(0);
    const second = await status(home);
    expect(second.status.running).toBe(true);
    expect(second.status.pid).not.toBe(pid);
    expect(alive(pid)).toBe(false);
    expect((await fetch(`${second.status.url}/health`)).status).toBe(200);

    const stopped = await runHermes(['gateway', 'stop'], { env: env(home), timeoutMs: 60_000 });
    expect(stopped.stdout).toContain('stopped');
    expect(alive(second.status.pid ?? 0)).toBe(false);
    const after = await status(home);
    expect(after.code).toBe(3);
    expect(after.status).toMatchObject({ running: false, pid: null, stale_lock: false });
  });

  it('a second gateway run is refused naming the running pid; a stale lock from a killed gateway is taken over', async () => {
    const home = newHome();
    expect((await runHermes(['gateway', 'start'], { env: env(home), timeoutMs: 60_000 })).code).toBe(0);
    const { status: running } = await status(home);
    const second = await runHermes(['gateway', 'run'], { env: env(home) });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`a gateway is already running for ${home} (pid ${running.pid}`);
    process.kill(running.pid ?? 0, 'SIGKILL');
    await waitFor(() => !alive(running.pid ?? 0), { what: 'the killed gateway to go' });
    const stale = await status(home);
    expect(stale.status).toMatchObject({ running: false, stale_lock: true });
    const again = await runHermes(['gateway', 'start'], { env: env(home), timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(home, 'logs', 'gateway.out.log'), 'utf8')).toContain('took over a stale gateway lock');
  });

  it('invalid configuration: gateway run exits 78 naming file, line and key; start reports it', async () => {
    const home = newHome('gateway:\n  port: "http"\n');
    const run = await runHermes(['gateway', 'run'], { env: { ...env(home), HERMES_GATEWAY_PORT: '' } });
    expect(run.code).toBe(78);
    expect(run.stderr).toMatch(/config\.yaml:2.*gateway\.port/);
    const start = await runHermes(['gateway', 'start'], { env: { ...env(home), HERMES_GATEWAY_PORT: '' } });
    expect(start.code).toBe(78);
    expect(start.stderr).toMatch(/did not start \(exit 78\).*gateway\.port/);
  });
});

describe('nothing lost, nothing repeated', () => {
  it('messages sent during a restart are all answered exactly once; a running turn finishes within the drain', async () => {
    const home = newHome();
    openai.server.respond((request) => {
      const messages = (request.body?.messages ?? []) as { role: string; content: string }[];
      return { text: `re: ${messages.at(-1)?.content}`, delayMs: 300 };
    });
    expect((await runHermes(['gateway', 'start'], { env: env(home), timeoutMs: 60_000 })).code).toBe(0);
    const chats = [501, 502, 503, 504, 505, 506];
    // a turn is running when the restart begins: it finishes and is delivered before the old process exits
    tg.pushMessage({ chatId: chats[0] ?? 0, userId: chats[0] ?? 0, text: 'before' });
    await waitFor(() => openai.server.requests.length > 0, { what: 'the first turn to start' });
    const oldPid = (await status(home)).status.pid ?? 0;
    const restart = runHermes(['gateway', 'restart'], { env: env(home), timeoutMs: 60_000 });
    const during = chats.slice(1);
    const send = (from: number, to: number) => {
      for (const [i, chat] of during.slice(from, to).entries())
        tg.pushMessage({ chatId: chat, userId: chat, text: `during ${from + i}` });
    };
    // two while the old process drains its running turn, three once it is gone and the new one starts
    send(0, 2);
    await waitFor(() => !alive(oldPid), { what: 'the old gateway process to exit' });
    send(2, during.length);
    expect((await restart).code).toBe(0);
    await waitFor(() => chats.every((c) => repliesTo(c) >= 1), { what: 'every answer' });
    await quietPeriod(1_000, 'a second answer (a redone turn, a re-fetched update) would show now');
    expect(chats.map(repliesTo)).toEqual(chats.map(() => 1));
    expect(tg.sent.find((m) => m.chat_id === chats[0])?.text).toBe('re: before');
  });

  it('kill -9 during turns, then start: exactly one reply for every inbound message', async () => {
    const home = newHome();
    let slow = true;
    openai.server.respond((request) => {
      const messages = (request.body?.messages ?? []) as { role: string; content: string }[];
      return slow ? { hang: true } : { text: `re: ${messages.at(-1)?.content}` };
    });
    const child = spawn(process.execPath, [HERMES_BIN, 'gateway', 'run'], {
      env: { ...process.env, ...env(home) },
      stdio: 'ignore',
    });
    const chats = [601, 602, 603];
    await waitFor(() => tg.pendingPolls() > 0, { what: 'the gateway polling' });
    for (const chat of chats) tg.pushMessage({ chatId: chat, userId: chat, text: `question ${chat}` });
    await waitFor(() => openai.server.requests.length >= chats.length, { what: 'all turns running' });
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    expect(tg.sent).toHaveLength(0);
    slow = false;
    expect((await runHermes(['gateway', 'start'], { env: env(home), timeoutMs: 60_000 })).code).toBe(0);
    await waitFor(() => chats.every((c) => repliesTo(c) >= 1), { what: 'every answer' });
    await quietPeriod(1_000, 'a second answer (a redone turn, a re-fetched update) would show now');
    expect(chats.map(repliesTo)).toEqual([1, 1, 1]);
    expect(tg.sent.map((m) => m.text).sort()).toEqual(chats.map((c) => `re: question ${c}`));
  });
});
