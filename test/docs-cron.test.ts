// docs/cron.md's ops-alert pattern, run as written: its config block, its `hermes cron add`
// command, then `hermes gateway run` with the fake Telegram and model (the clock accelerated with
// the test-only HERMES_CRON_CLOCK_SPEED): the check runs df through the terminal tool, stays silent
// while the disk has room, and posts to the home channel once it does not.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from './fakes/telegram-server.js';
import { runHermes, tempHome } from './helpers/run-hermes.js';
import { spawnGateway } from './helpers/spawn-gateway.js';
import { useFakeOpenAI } from './helpers/use-fake-openai.js';
import { waitFor } from './helpers/wait-for.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/cron.md', import.meta.url)), 'utf8');
const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});

/** The fenced block whose first line is `marker` (without it). */
function block(marker: string): string {
  const fence = /^```[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(DOC); m !== null; m = fence.exec(DOC)) {
    const body = m[1] ?? '';
    if (body.startsWith(`${marker}\n`)) return body.slice(marker.length + 1);
  }
  throw new Error(`docs/cron.md has no block starting with ${marker}`);
}

/** A command line's words: "double-quoted" ones kept whole. */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');

describe('docs/cron.md', () => {
  it('every `hermes cron add` line it shows is accepted as written', async () => {
    const lines = DOC.split('\n').filter((l) => l.startsWith('hermes cron add '));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const home = tempHome();
    let previous = '';
    for (const line of lines) {
      const [, ...args] = words(line.replace(/\s+#.*$/, ''));
      // what the doc does before such a line: the script written and approved, the upstream job added
      const script = args.indexOf('--script') + 1;
      if (script > 0) {
        mkdirSync(join(home, 'scripts'), { recursive: true });
        writeFileSync(join(home, 'scripts', args[script] ?? ''), 'echo ok\n');
        const approved = await runHermes(['trust', 'approve', `script:${args[script]}`, '--yes'], {
          env: { HERMES_HOME: home },
        });
        expect(approved.code).toBe(0);
      }
      const from = args.indexOf('--context-from') + 1;
      if (from > 0) args[from] = previous;
      const added = await runHermes([...args, '--json'], { env: { HERMES_HOME: home } });
      expect([line, added.code, added.stderr]).toEqual([line, 0, '']);
      previous = (JSON.parse(added.stdout) as { id: string }).id;
    }
  });

  it('the ops-alert pattern: silent while all is well, one alert in the home channel when the check finds a problem', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), block('# file: config.yaml'));
    const command = block('# ops-alert').trim();
    const [bin, ...args] = words(command);
    expect(bin).toBe('hermes');
    const added = await runHermes([...args, '--json'], { env: { HERMES_HOME: home } });
    expect(added.stderr).toBe('');
    expect(JSON.parse(added.stdout)).toMatchObject({
      name: 'disk-check',
      schedule: 'every 5m',
      deliver: 'telegram',
      toolsets: ['terminal'],
      timezone: 'UTC',
    });

    // the fake model: each run first calls the terminal tool, then judges what df printed
    let full = false;
    openai.server.respond((request) => {
      const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
      const last = messages.at(-1);
      if (last?.role === 'user') return { toolCalls: [{ name: 'terminal', arguments: { command: 'df -h /' } }] };
      expect(last?.content).toContain('Filesystem'); // df's own output reached the model
      return { text: full ? 'Disk / is 97% full.' : '[SILENT]' };
    });
    const store = () => openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
    const fires = () => {
      const s = store();
      try {
        const [job] = s.cronJobs.list();
        return job ? s.cronJobs.fires(job.id) : [];
      } finally {
        s.close();
      }
    };
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_HOME_CHANNEL: '-1001',
      HERMES_CRON_CLOCK_SPEED: '300', // test-only: 5 minutes a second
    });
    try {
      await waitFor(() => fires().filter((f) => f.status === 'silent').length >= 2);
      expect(tg.sent).toEqual([]);
      full = true;
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]).toMatchObject({ chat_id: -1001, text: 'Disk / is 97% full.' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
