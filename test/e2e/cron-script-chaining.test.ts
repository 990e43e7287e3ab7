// Issue 35 (seed rows 164, 165): a cron job's pre-run script and wake gate, and context_from
// chaining, through the built CLI and one `hermes gateway run` with the fake Telegram and model.
// A script runs only as the operator approved it (`hermes trust approve script:NAME`): an
// unapproved or edited one is not executed and the run goes on, logged; `{"wakeAgent": false}`
// skips the model and sends nothing; any other output is given to the run, and so is the upstream
// job's latest answer. Each run is asked for with `hermes cron run` (the schedules are a day away).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const HOME_CHAT = -1001;
const openai = useFakeOpenAI();
const home = tempHome();
const scripts = join(home, 'scripts');
const ran = (name: string) => existsSync(join(home, `${name}.ran`));
let tg: FakeTelegram;
let gw: RunningGateway;
const ids: Record<string, string> = {};

const hermes = (args: string[]) => runHermes(args, { env: { HERMES_HOME: home } });

/** Writes a script that leaves `<name>.ran` in HERMES_HOME when it runs, then prints `out`. */
function script(name: string, out: string, extra = ''): void {
  writeFileSync(join(scripts, name), `touch "$HERMES_HOME/${name}.ran"\n${out}\n${extra}`);
}

async function addJob(name: string, args: string[]): Promise<void> {
  const added = await hermes(['cron', 'add', 'every 1d', ...args, '--name', name, '--deliver', 'telegram', '--json']);
  expect(added.code, added.stderr).toBe(0);
  ids[name] = (JSON.parse(added.stdout) as { id: string }).id;
}

/** The job's fires as state.db holds them now. */
function fires(name: string) {
  const store = openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
  try {
    return store.cronJobs.fires(ids[name] ?? '');
  } finally {
    store.close();
  }
}

/** `hermes cron run` and the fire's end (each job runs once in this file). */
async function runJob(name: string) {
  const run = await hermes(['cron', 'run', ids[name] ?? '']);
  expect(run.code, run.stderr).toBe(0);
  // its end: not running, and not answered-but-not-yet-sent
  return waitFor(() => fires(name).find((f) => f.status !== 'running' && f.status !== 'answered'));
}

const log = () => readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const userText = (i: number) =>
  ((chatRequests()[i]?.body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ??
    '') as string;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
  mkdirSync(scripts, { recursive: true });
  script('quiet.sh', `echo "no new mail"\necho '{"wakeAgent": false}'`);
  script('news.sh', `echo "feed: 2 new posts"\necho '{"wakeAgent": true}'`);
  script('broken.sh', `echo '{"wakeAgent": false}'\necho "mail server unreachable" >&2`, 'exit 3\n');
  script('edited.sh', `echo '{"wakeAgent": false}'`);
  const approved = await hermes(['trust', 'approve', '--all', '--yes']);
  expect(approved.stdout).toContain('script:quiet.sh: approved');
  // edited after its approval, and one never approved: neither may run
  script('edited.sh', `echo '{"wakeAgent": false}'\necho edited`);
  script('new.sh', `echo '{"wakeAgent": false}'`);
  await Promise.all([
    addJob('quiet', ['check the mail', '--script', 'quiet.sh']),
    addJob('news', ['summarize the feed', '--script', 'news.sh']),
    addJob('broken', ['check the mail server', '--script', 'broken.sh']),
    addJob('edited', ['check the edited thing', '--script', 'edited.sh']),
    addJob('collect', ['collect the news']),
  ]);
  const pending = await hermes(['cron', 'add', 'every 1d', 'check new', '--script', 'new.sh', '--json']);
  expect(pending.stderr).toContain('script new.sh is not approved');
  expect(pending.stderr).toContain('hermes trust approve script:new.sh');
  ids.new = (JSON.parse(pending.stdout) as { id: string }).id;
  await addJob('rank', ['rank the stories', '--context-from', ids.collect ?? '']);
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: tg.apiRoot,
    TELEGRAM_ALLOWED_USERS: '42',
    TELEGRAM_HOME_CHANNEL: String(HOME_CHAT),
  });
}, 60_000);

afterAll(async () => {
  expect(await gw?.stop()).toBe(0);
  await tg?.close();
});

describe('a cron job with a pre-run script', () => {
  it('{"wakeAgent": false}: the script ran, the model is not asked, nothing is sent, the fire is silent', async () => {
    const fire = await runJob('quiet');
    expect(fire).toMatchObject({
      status: 'silent',
      error: 'not woken: the pre-run script quiet.sh said {"wakeAgent": false}',
    });
    expect(ran('quiet.sh')).toBe(true);
    expect(chatRequests()).toEqual([]);
    expect(tg.sent).toEqual([]);
  });

  it('any other output: the run goes on with the output before the prompt, and its answer is sent', async () => {
    openai.server.respond(() => ({ text: 'Two new posts about cron.' }));
    const fire = await runJob('news');
    expect(fire).toMatchObject({ status: 'delivered', answer: 'Two new posts about cron.' });
    expect(userText(0)).toContain('The output of the pre-run script news.sh:\nfeed: 2 new posts');
    expect(userText(0)).not.toContain('wakeAgent');
    expect(userText(0).endsWith('\n\nsummarize the feed')).toBe(true);
    await waitFor(() => tg.sent.some((m) => m.text === 'Two new posts about cron.'));
  });

  it('a failing script (exit 3, even after a wakeAgent false line): the run goes on, told of the failure, and the log says so', async () => {
    openai.server.respond(() => ({ text: 'The mail server check failed.' }));
    const fire = await runJob('broken');
    expect(fire).toMatchObject({ status: 'delivered' });
    expect(userText(0)).toContain('The pre-run script broken.sh failed (exited with code 3)');
    expect(log()).toContain(
      'pre-run script broken.sh failed (exited with code 3); the agent runs anyway: mail server unreachable',
    );
  });

  it('not approved, or edited since its approval: not executed; the run goes on and the log names hermes trust approve', async () => {
    openai.server.respond(() => ({ text: '[SILENT]' }));
    const [fresh, edited] = await Promise.all([runJob('new'), runJob('edited')]);
    expect(fresh).toMatchObject({ status: 'silent', error: null });
    expect(edited).toMatchObject({ status: 'silent', error: null });
    expect(ran('new.sh')).toBe(false);
    expect(ran('edited.sh')).toBe(false);
    expect(chatRequests()).toHaveLength(2); // both ran the model: a script that does not run gates nothing
    const asked = [userText(0), userText(1)].join('\n');
    expect(asked).toContain('The pre-run script new.sh was not run: not approved');
    expect(asked).toContain('The pre-run script edited.sh was not run: changed since it was approved');
    expect(log()).toContain('pre-run script new.sh not run: not approved');
    expect(log()).toContain('run `hermes trust approve script:new.sh`');
    expect(log()).toContain('pre-run script edited.sh not run: changed since it was approved');
    const list = await hermes(['trust', 'list', '--json']);
    const states = JSON.parse(list.stdout) as { id: string; state: string }[];
    expect(states.filter((s) => s.id.startsWith('script:')).map((s) => [s.id, s.state])).toEqual([
      ['script:broken.sh', 'approved'],
      ['script:edited.sh', 'changed'],
      ['script:new.sh', 'new'],
      ['script:news.sh', 'approved'],
      ['script:quiet.sh', 'approved'],
    ]);
  });
});

describe('context_from', () => {
  it("the upstream job's latest answer is in the downstream run's model request", async () => {
    openai.server.respond(() => ({ text: 'top story: Hermes ships cron chaining' }));
    expect(await runJob('collect')).toMatchObject({ status: 'delivered' });
    openai.server.respond(() => ({ text: 'ranked' }));
    expect(await runJob('rank')).toMatchObject({ status: 'delivered', answer: 'ranked' });
    expect(userText(1)).toContain(`The latest answer of job "collect" (${ids.collect}), from its run at `);
    expect(userText(1)).toContain('top story: Hermes ships cron chaining\n[End of context]\n\nrank the stories');
  });

  it('a missing upstream or a cycle is refused at add and edit (exit 2); edit changes the link', async () => {
    const missing = await hermes(['cron', 'add', 'every 1d', 'x', '--context-from', 'deadbeef']);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'hermes: context_from: no job "deadbeef" (hermes cron list shows them)\n',
    ]);
    const cycle = await hermes(['cron', 'edit', ids.collect ?? '', '--context-from', ids.rank ?? '']);
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toContain(`would make a cycle: ${ids.collect} reads ${ids.rank} reads ${ids.collect}`);
    const outside = await hermes(['cron', 'edit', ids.collect ?? '', '--script', '../config.yaml']);
    expect([outside.code, outside.stderr]).toEqual([
      2,
      'hermes: script "../config.yaml": ".." is not allowed: name a file of HERMES_HOME/scripts\n',
    ]);
    const edited = await hermes(['cron', 'edit', ids.rank ?? '', '--no-context-from', '--script', 'news.sh', '--json']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ id: ids.rank, context_from: null, script: 'news.sh' });
  });
});
