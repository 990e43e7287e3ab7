// Issue 20's cron acceptance through `hermes gateway run`, the fake Telegram and the fake model: a
// job added with `hermes cron add ... --deliver telegram` posts to the home channel on schedule
// (accelerated clock: HERMES_CRON_CLOCK_SPEED, test-only), a [SILENT] answer posts nothing, a gateway
// stopped over a scheduled time runs the job once on start, and "remind me in 2 minutes" through the
// cronjob tool yields one reminder in that chat.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@hermes/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const HOME_CHAT = -1001;
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
  TELEGRAM_HOME_CHANNEL: String(HOME_CHAT),
  ...extra,
});

/** The jobs as state.db holds them now (read beside the running gateway). */
function jobs(home: string) {
  const store = openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
  try {
    return store.cronJobs.list().map((j) => ({ ...j, fires: store.cronJobs.fires(j.id) }));
  } finally {
    store.close();
  }
}

async function addJob(home: string, args: string[]): Promise<string> {
  const added = await runHermes(['cron', 'add', ...args, '--json'], { env: { HERMES_HOME: home } });
  expect(added.stderr).toBe('');
  expect(added.code).toBe(0);
  return (JSON.parse(added.stdout) as { id: string }).id;
}

/** How many times the gateway's log of this home says `text`. */
const countIn = (home: string, text: string): number => {
  const log = join(home, 'logs', 'gateway.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split(text).length - 1 : 0;
};
/** How many times a gateway's scheduler started (its first check done) in this home, from the log. */
const schedulerStarts = (home: string): number => countIn(home, 'cron scheduler started');

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('scheduled jobs through hermes gateway run', () => {
  it('hermes cron add "every 1m" ... --deliver telegram posts to the Telegram home channel on schedule; [SILENT] posts nothing', async () => {
    const home = tempHome();
    const id = await addJob(home, ['every 1m', 'check the disk and report', '--deliver', 'telegram']);
    mkdirSync(join(home, 'memories'), { recursive: true });
    writeFileSync(join(home, 'memories', 'MEMORY.md'), 'The user drinks green tea.\n');
    let answer = 'Disk /var is 93% full.';
    openai.server.respond(() => ({ text: answer }));
    const gw = await spawnGateway(env(home, { HERMES_CRON_CLOCK_SPEED: '60' })); // a minute a second
    try {
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]).toMatchObject({ chat_id: HOME_CHAT, text: 'Disk /var is 93% full.' });
      const request = chatRequests()[0]?.body as { messages: { role: string; content: string }[] };
      expect(request.messages.at(-1)).toMatchObject({ role: 'user', content: 'check the disk and report' });
      expect(request.messages[0]?.content).toContain('answer exactly [SILENT]');
      expect(request.messages[0]?.content).not.toContain('green tea'); // scheduled runs have no memory
      // from now on the check finds nothing: the next runs post nothing
      answer = '[SILENT]';
      const sentBefore = tg.sent.length;
      await waitFor(() => (jobs(home)[0]?.fires ?? []).filter((f) => f.status === 'silent').length >= 2);
      expect(tg.sent.length).toBe(sentBefore);
      expect(jobs(home)[0]).toMatchObject({ id, lastStatus: 'silent', failures: 0 });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('a gateway stopped over a scheduled time runs the job once on start, not per missed slot, and not again at the next start', async () => {
    const home = tempHome();
    const id = await addJob(home, ['every 1h', 'summarize the night', '--deliver', 'telegram']);
    openai.server.respond(() => ({ text: 'nightly summary' }));
    // the clock starts 3.5 hours on: the 1h, 2h and 3h slots passed while no gateway ran
    const later = { HERMES_CRON_CLOCK_OFFSET_MS: String(3.5 * 3_600_000) };
    const first = await spawnGateway(env(home, later));
    try {
      await waitFor(() => schedulerStarts(home) === 1);
      await waitFor(() => tg.sent.length > 0);
      await waitFor(() => jobs(home)[0]?.fires[0]?.status === 'delivered');
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await spawnGateway(env(home, later));
    try {
      await waitFor(() => schedulerStarts(home) === 2);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(tg.sent.map((m) => [m.chat_id, m.text])).toEqual([[HOME_CHAT, 'nightly summary']]);
    const [job] = jobs(home);
    expect(job?.fires).toHaveLength(1);
    expect(job).toMatchObject({ id, state: 'active', lastStatus: 'delivered' });
  });

  it('hermes cron add and hermes cron run against a running gateway: it picks the job up and runs it now, once', async () => {
    const home = tempHome();
    openai.server.respond(() => ({ text: 'status: all green' }));
    const gw = await spawnGateway(env(home)); // the real clock: the job's first slot is a day away
    try {
      await waitFor(() => schedulerStarts(home) === 1);
      const id = await addJob(home, ['every 1d', 'post the status', '--deliver', 'telegram']);
      const signalled = () => countIn(home, 'cron: the table was changed by hermes cron; re-reading it now');
      // the add and the run each signal the gateway (SIGUSR2), which re-reads its table at once
      await waitFor(() => signalled() === 1, { what: 'the signal of cron add' });
      const run = await runHermes(['cron', 'run', id], { env: { HERMES_HOME: home } });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`job ${id} will run now in the running gateway (or when it next starts)\n`);
      await waitFor(() => signalled() === 2, { what: 'the signal of cron run' });
      await waitFor(() => tg.sent.length > 0);
      await waitFor(() => jobs(home)[0]?.fires[0]?.status === 'delivered');
      expect(tg.sent.map((m) => [m.chat_id, m.text])).toEqual([[HOME_CHAT, 'status: all green']]);
      const [job] = jobs(home);
      expect(job).toMatchObject({ runRequestedAt: null, lastStatus: 'delivered' });
      expect(job?.nextRunAt).toBe(job?.createdAt === undefined ? 0 : job.createdAt + 86_400_000);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('"remind me in 2 minutes to stretch": the model calls cronjob and exactly one reminder arrives in that chat', async () => {
    const home = tempHome();
    openai.server.script(
      {
        toolCalls: [
          {
            name: 'cronjob',
            arguments: { action: 'create', schedule: 'in 2 minutes', prompt: 'Remind the user to stretch.' },
          },
        ],
      },
      { text: 'Sure, I will remind you in 2 minutes.' },
      { text: 'Time to stretch! 🧘' },
    );
    const gw = await spawnGateway(env(home, { HERMES_CRON_CLOCK_SPEED: '60' }));
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: 'remind me in 2 minutes to stretch' });
      await waitFor(() => tg.sent.some((m) => m.text === 'Time to stretch! 🧘'));
      await waitFor(() => jobs(home)[0]?.fires[0]?.status === 'delivered');
      const [job] = jobs(home);
      expect(job).toMatchObject({
        schedule: 'in 2 minutes',
        deliver: 'telegram:42',
        owner: 'telegram:42',
        state: 'done',
      });
      expect(job?.fires).toHaveLength(1);
      // the gateway's own announcement of the new job, then the model's answer, then the reminder
      const [announced, ...answers] = tg.sent.map((m) => [m.chat_id, m.text] as const);
      expect(announced?.[0]).toBe(42);
      expect(announced?.[1]).toContain('⏰ The assistant scheduled a job here: ');
      expect(announced?.[1]).toContain(`(in 2 minutes, next run `);
      expect(announced?.[1]).toContain(`hermes cron remove ${job?.id}`);
      expect(answers).toEqual([
        [42, 'Sure, I will remind you in 2 minutes.'],
        [42, 'Time to stretch! 🧘'],
      ]);
      // the scheduled run offered no cronjob tool (a job cannot schedule jobs)
      const reminderRequest = chatRequests()[2]?.body as { tools?: { function: { name: string } }[] };
      expect(reminderRequest.tools?.map((t) => t.function.name) ?? []).not.toContain('cronjob');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
