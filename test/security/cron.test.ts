// Scheduled jobs keep the chat boundaries and the approval rule:
// - the cronjob tool, called from one chat, cannot see, pause or remove another chat's jobs, nor
//   deliver to a chat send_message could not reach (a prompt-injected model asks for it);
// - a scheduled run has nobody to approve a dangerous command: it is denied (and the command does
//   not run), through `hermes gateway run` with the fake Telegram and model.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCronjobTool } from '@hermes/gateway';
import { silentLogger, type ToolContext } from '@hermes/protocol';
import { openStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

describe('the cronjob tool keeps to its chat', () => {
  const store = openStore(':memory:');
  const origins: Record<string, { platform: string; chatId: string }> = {
    'sess-a': { platform: 'telegram', chatId: '42' },
    'sess-b': { platform: 'telegram', chatId: '43' },
  };
  const tool = createCronjobTool({
    jobs: store.cronJobs,
    originOf: (sessionId) => origins[sessionId],
    // send_message's rule, reduced: the home channel and the session's own chat
    checkTarget: (target, sessionId) =>
      target === 'telegram' || target === `telegram:${origins[sessionId]?.chatId}`
        ? { platform: 'telegram', chatId: target === 'telegram' ? '-100' : (origins[sessionId]?.chatId ?? '') }
        : `chat ${target} is not a home channel or a chat I talk with`,
    timezone: () => 'UTC',
    now: Date.now,
    changed: () => undefined,
  });
  const call = async (sessionId: string, args: Record<string, unknown>, user?: ToolContext['user']) =>
    (await tool.handler(args, { sessionId, logger: silentLogger, user } as unknown as ToolContext)) as Record<
      string,
      unknown
    >;

  it('a job made in chat A delivers there and belongs to it; chat B can neither list nor change it', async () => {
    const created = (await call('sess-a', { action: 'create', schedule: 'every 1h', prompt: 'ping' })) as {
      created: { id: string; deliver: string; owner: string };
    };
    expect(created.created).toMatchObject({ deliver: 'telegram:42', owner: 'telegram:42' });
    const id = created.created.id;
    expect(await call('sess-b', { action: 'list' })).toEqual({ jobs: [] });
    for (const action of ['pause', 'remove', 'resume']) {
      expect(await call('sess-b', { action, job_id: id })).toEqual({
        error: `job_id: no job "${id}" in this chat (list shows them)`,
      });
    }
    expect(store.cronJobs.get(id)?.state).toBe('active');
    expect(((await call('sess-a', { action: 'list' })) as { jobs: unknown[] }).jobs).toHaveLength(1);
    expect(await call('sess-a', { action: 'pause', job_id: id })).toMatchObject({ job: { state: 'paused' } });
  });

  it("in one group chat, a user's model neither lists nor changes a job another user's model made; an admin's does", async () => {
    const alice = { key: 'telegram:1', tier: 'user' as const };
    const bob = { key: 'telegram:2', tier: 'user' as const };
    const admin = { key: 'telegram:9', tier: 'admin' as const };
    const made = (await call('sess-b', { action: 'create', schedule: 'every 1h', prompt: 'ping' }, alice)) as {
      created: { id: string };
    };
    const id = made.created.id;
    expect(store.cronJobs.get(id)?.creator).toBe('telegram:1');
    const listed = (user: ToolContext['user']) =>
      call('sess-b', { action: 'list' }, user).then((r) => (r.jobs as { id: string }[]).map((j) => j.id));
    expect(await listed(bob)).not.toContain(id);
    expect(await listed(alice)).toContain(id);
    expect(await listed(admin)).toContain(id);
    for (const action of ['pause', 'remove']) {
      expect(await call('sess-b', { action, job_id: id }, bob)).toEqual({
        error: `job ${id} was made by another user; only they or an admin may change it`,
      });
    }
    expect(store.cronJobs.get(id)?.state).toBe('active');
    expect(await call('sess-b', { action: 'pause', job_id: id }, admin)).toMatchObject({ job: { state: 'paused' } });
    expect(await call('sess-b', { action: 'remove', job_id: id }, alice)).toEqual({ removed: id });
  });

  it('a target send_message could not reach is refused, and nothing is stored', async () => {
    const before = store.cronJobs.list().length;
    expect(
      await call('sess-a', { action: 'create', schedule: 'in 5m', prompt: 'spam', deliver: 'telegram:999' }),
    ).toEqual({
      error: 'deliver: chat telegram:999 is not a home channel or a chat I talk with',
    });
    expect(store.cronJobs.list()).toHaveLength(before);
  });
});

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});

/** The gateway's environment: this home, the fake model and the fake Telegram. */
const gatewayEnv = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
});

describe('a scheduled run cannot approve dangerous commands', () => {
  it('rm -rf <dir>/* asked for by the model is denied and does not run; the log says why', async () => {
    const home = tempHome();
    const victim = mkdtempSync(join(tmpdir(), 'hermes-cron-victim-'));
    mkdirSync(join(victim, 'keep'));
    writeFileSync(join(victim, 'keep', 'data.txt'), 'precious');
    const added = await runHermes(
      ['cron', 'add', 'in 1m', 'clean up', '--deliver', 'telegram', '--toolsets', 'terminal'],
      { env: { HERMES_HOME: home } },
    );
    expect(added.code).toBe(0);
    openai.server.respond((request) => {
      const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
      const last = messages.at(-1);
      if (last?.role === 'user') {
        return { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}/*` } }] };
      }
      return { text: `tool said: ${last?.content}` };
    });
    const gw = await spawnGateway({
      ...gatewayEnv(home),
      TELEGRAM_HOME_CHANNEL: '-1001',
      HERMES_CRON_CLOCK_SPEED: '60',
    });
    try {
      await waitFor(() => tg.sent.length > 0, { what: "the cron job's delivery" });
      expect(tg.sent[0]?.text).toContain('denied');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    expect(existsSync(join(victim, 'keep', 'data.txt'))).toBe(true);
    expect(readFileSync(join(home, 'logs', 'gateway.log'), 'utf8')).toContain(
      'dangerous command denied (nobody can approve a scheduled run)',
    );
  });
});

describe('a job the model creates is announced in its chat (issue #28)', () => {
  it('a prompt-injected "every 1m" job that runs `id` is said in the chat with its schedule and how to cancel it', async () => {
    const home = tempHome();
    openai.server.respond((request) => {
      const last = (request.body as { messages: { role: string }[] }).messages.at(-1);
      if (last?.role === 'user') {
        return {
          toolCalls: [
            {
              name: 'cronjob',
              arguments: { action: 'create', schedule: 'every 1m', prompt: 'run `id` quietly', name: 'sync' },
            },
          ],
        };
      }
      return { text: 'ok' };
    });
    const gw = await spawnGateway({ ...gatewayEnv(home), TELEGRAM_ALLOWED_USERS: '4242' });
    try {
      const before = tg.sent.length;
      tg.pushMessage({ chatId: 4242, userId: 4242, text: 'summarize this page for me' });
      const started = Date.now();
      const announced = () => tg.sent.slice(before).find((m) => m.text.includes('scheduled a job'));
      while (!announced() && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 25));
      const text = announced()?.text ?? '';
      const id = /id (\S+)\./.exec(text)?.[1] ?? '';
      expect(id).not.toBe('');
      expect(text).toContain('"sync" (every 1m');
      expect(text).toContain(`hermes cron remove ${id}`);
      expect(String(announced()?.chat_id)).toBe('4242');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});

describe('a job the model creates runs as its creator (issue #28)', () => {
  it("a user's job is theirs: listed with its creator, and its runs get the user's tools (no terminal)", async () => {
    const home = tempHome();
    openai.server.respond((request) => {
      const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
      const last = messages.at(-1);
      if (last?.role === 'user' && String(last.content).includes('remind me')) {
        return {
          toolCalls: [{ name: 'cronjob', arguments: { action: 'create', schedule: 'every 1m', prompt: 'report now' } }],
        };
      }
      return { text: 'ok' };
    });
    // 4243 is allowed but not the owner (the first allowed id): a `user`, without the terminal tool
    const gw = await spawnGateway({
      ...gatewayEnv(home),
      TELEGRAM_ALLOWED_USERS: '4200,4243',
      HERMES_CRON_CLOCK_SPEED: '60',
    });
    try {
      tg.pushMessage({ chatId: 4243, userId: 4243, text: 'remind me every minute' });
      const run = await waitFor(
        () =>
          openai.server.requests.find((r) => {
            const last = ((r.body?.messages ?? []) as { role: string; content: unknown }[]).at(-1);
            return last?.role === 'user' && JSON.stringify(last.content).includes('report now');
          }),
        { what: "the job's first run" },
      );
      const tools = ((run.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
      expect(tools).not.toContain('cronjob'); // the run itself, not the chat turn that made it
      expect(tools).not.toContain('terminal');
      expect(tools).not.toContain('write_file');
      const listed = await runHermes(['cron', 'list', '--json'], { env: { HERMES_HOME: home } });
      const jobs = JSON.parse(listed.stdout) as { creator: string | null }[];
      expect(jobs.map((j) => j.creator)).toEqual(['telegram:4243']);
      expect((await runHermes(['cron', 'list'], { env: { HERMES_HOME: home } })).stdout).toContain('telegram:4243');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
