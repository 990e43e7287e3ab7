// Issue 30 (one settings builder): every model setting of config.yaml reaches the model the same way
// from `hermes -z`, `hermes chat` and `hermes gateway run` on each of its surfaces (a Telegram chat,
// chat completions, the Responses API, a cron job). One HERMES_HOME: the primary is a provider
// profile (its base URL, key and header), model.fallback is `custom:` on a second fake server,
// model.max_tokens and model.temperature are set, and model.context_length is small enough that the
// third request of a turn (after two tool calls) is compressed first: the compressor's summary
// request, and its max_tokens (a fifth of context.threshold × model.context_length), show the
// context length each surface used. The requests each surface caused are told apart by a marker the
// user message carries (and the tool calls repeat), and compared field by field.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, type Reply, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenSETTINGSfaketoken4321';
const PRIMARY_KEY = 'sk-primary-profile-key-0123456789';
const FALLBACK_KEY = 'sk-fallback-custom-key-0123456789';
const PROFILE_HEADER = 'x-profile-check';
const MAX_TOKENS = 321;
const TEMPERATURE = 0.25;
/** a fifth (SUMMARY_SHARE) of context.threshold 0.5 × model.context_length 1000 */
const SUMMARY_MAX_TOKENS = 100;
/** what the fakes report as prompt tokens: the calibration only ever scales estimates up */
const USAGE = { prompt_tokens: 100_000, completion_tokens: 10 };

let tg: FakeTelegram;
let primary: FakeOpenAI;
let fallback: FakeOpenAI;

type Scenario = 'normal' | 'fallback';
const MARKER = /SURF-([a-z]+)-(normal|fallback)/;
const markerOf = (r: RecordedRequest): string | null => MARKER.exec(r.rawBody)?.[0] ?? null;
const isSummary = (r: RecordedRequest): boolean => r.rawBody.includes('You compress a conversation');

/**
 * The model both fakes play: two tool calls (of a tool nobody has: the error is the result), then
 * the answer; a summary request gets a summary. The primary fails every request of a `fallback` run.
 */
function model(server: 'primary' | 'fallback'): (r: RecordedRequest) => Reply {
  const turns = new Map<string, number>();
  return (r) => {
    const marker = markerOf(r) ?? 'none';
    if (server === 'primary' && marker.endsWith('-fallback')) return { status: 500 };
    if (isSummary(r)) return { text: `summary of ${marker}`, usage: USAGE };
    const n = turns.get(marker) ?? 0;
    turns.set(marker, n + 1);
    if (n < 2) return { toolCalls: [{ name: 'no_such_tool', arguments: { marker, step: n } }], usage: USAGE };
    return { text: `done ${marker}`, usage: USAGE };
  };
}

beforeAll(async () => {
  [tg, primary, fallback] = await Promise.all([
    startFakeTelegram({ token: TOKEN, longPollCapMs: 200 }),
    startFakeOpenAI(),
    startFakeOpenAI(),
  ]);
  primary.respond(model('primary'));
  fallback.respond(model('fallback'));
});
afterAll(async () => {
  await Promise.all([tg.close(), primary.close(), fallback.close()]);
});

/** A HERMES_HOME whose primary is the provider profile `prof` (a user plugin) on the primary fake. */
function prepareHome(): string {
  const home = tempHome();
  const dir = join(home, 'plugins', 'model-providers', 'prof');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: model-provider-prof\nversion: 1.0.0\nkind: backend\n');
  const profile = {
    name: 'prof',
    baseUrl: primary.url,
    apiKeyEnv: 'PROF_API_KEY',
    defaultModel: 'model-p',
    headers: { [PROFILE_HEADER]: 'from-the-profile' },
  };
  writeFileSync(
    join(dir, 'index.ts'),
    `export function register(ctx) {\n  ctx.registerModelProvider(${JSON.stringify(profile)});\n}\n`,
  );
  writeFileSync(
    join(home, 'config.yaml'),
    [
      'plugins:',
      '  enabled: [model-providers/prof]',
      'model:',
      '  provider: prof',
      `  base_url: ${fallback.url}`,
      `  api_key: ${FALLBACK_KEY}`,
      '  fallback: custom:model-f',
      `  max_tokens: ${MAX_TOKENS}`,
      `  temperature: ${TEMPERATURE}`,
      '  context_length: 1000',
      'context:',
      '  threshold: 0.5',
      '  protect_last_n: 1',
      'agent:',
      '  api_max_retries: 0',
      '',
    ].join('\n'),
  );
  trustHome(home); // the operator approves the user plugin (consent bound to content)
  return home;
}

const env = (home: string): Record<string, string> => ({
  HERMES_HOME: home,
  PROF_API_KEY: PRIMARY_KEY,
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42,43',
});

/** The user message of a surface's run: its marker, then enough words to pass the context budget. */
const prompt = (surface: string, scenario: Scenario): string =>
  `SURF-${surface}-${scenario}: please look into this. ${'lorem ipsum dolor sit amet '.repeat(120)}`;

/** What one model request carried of the settings. */
interface SettingsView {
  kind: 'turn' | 'summary';
  model: unknown;
  max_tokens: unknown;
  temperature: unknown;
  authorization: unknown;
  profileHeader: unknown;
}

function view(r: RecordedRequest): SettingsView {
  return {
    kind: isSummary(r) ? 'summary' : 'turn',
    model: r.body?.model,
    max_tokens: r.body?.max_tokens,
    temperature: r.body?.temperature,
    authorization: r.headers.authorization,
    profileHeader: r.headers[PROFILE_HEADER],
  };
}

/** The chat requests a surface's run caused at each fake, oldest first. */
function requestsOf(surface: string, scenario: Scenario): { primary: SettingsView[]; fallback: SettingsView[] } {
  const mine = (server: FakeOpenAI) =>
    server.requests
      .filter((r) => r.path.endsWith('/chat/completions') && markerOf(r) === `SURF-${surface}-${scenario}`)
      .map(view);
  return { primary: mine(primary), fallback: mine(fallback) };
}

const atPrimary = (kind: SettingsView['kind']): SettingsView => ({
  kind,
  model: 'model-p',
  max_tokens: kind === 'turn' ? MAX_TOKENS : SUMMARY_MAX_TOKENS,
  temperature: kind === 'turn' ? TEMPERATURE : undefined,
  authorization: `Bearer ${PRIMARY_KEY}`,
  profileHeader: 'from-the-profile',
});
const atFallback = (kind: SettingsView['kind']): SettingsView => ({
  ...atPrimary(kind),
  model: 'model-f',
  authorization: `Bearer ${FALLBACK_KEY}`,
  profileHeader: undefined,
});

/** Two tool steps, the summary before the third request (the context budget is passed), the answer. */
const EXPECTED: Record<Scenario, { primary: SettingsView[]; fallback: SettingsView[] }> = {
  normal: {
    primary: [atPrimary('turn'), atPrimary('turn'), atPrimary('summary'), atPrimary('turn')],
    fallback: [],
  },
  // the first request fails at the primary; the fallback answers it and the rest of the turn
  fallback: {
    primary: [atPrimary('turn')],
    fallback: [atFallback('turn'), atFallback('turn'), atFallback('summary'), atFallback('turn')],
  },
};

const SCENARIOS: readonly Scenario[] = ['normal', 'fallback'];

/** The cron jobs' last statuses as state.db holds them now (read beside the running gateway). */
function cronStatuses(home: string): (string | null)[] {
  const store = openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
  try {
    return store.cronJobs.list().map((j) => j.lastStatus);
  } finally {
    store.close();
  }
}

describe('model settings reach the model the same from every surface', () => {
  it('hermes -z, hermes chat and gateway run (Telegram, chat completions, Responses, cron) send the same settings', async () => {
    const home = prepareHome();
    const seen = new Map<string, { primary: SettingsView[]; fallback: SettingsView[] }>();

    for (const scenario of SCENARIOS) {
      const z = await runHermes(['-z', prompt('oneshot', scenario)], { env: env(home), timeoutMs: 30_000 });
      expect(z.stderr).not.toContain('Error');
      expect(z.stdout).toContain(`done SURF-oneshot-${scenario}`);
      seen.set(`oneshot ${scenario}`, requestsOf('oneshot', scenario));

      const chat = await runHermes(['chat'], {
        env: env(home),
        input: `${prompt('chat', scenario)}\n/exit\n`,
        timeoutMs: 30_000,
      });
      expect(chat.code).toBe(0);
      expect(chat.stdout).toContain(`done SURF-chat-${scenario}`);
      seen.set(`chat ${scenario}`, requestsOf('chat', scenario));
    }

    // two one-time jobs, due a second after the gateway starts (the scheduler's clock runs 60× fast)
    for (const scenario of SCENARIOS) {
      const added = await runHermes(['cron', 'add', 'in 1m', prompt('cron', scenario), '--deliver', 'none'], {
        env: env(home),
      });
      expect(added.code).toBe(0);
    }
    const gw = await spawnGateway({ ...env(home), HERMES_CRON_CLOCK_SPEED: '60' }, 30_000);
    try {
      for (const [i, scenario] of SCENARIOS.entries()) {
        const chatId = 42 + i;
        const before = tg.sent.filter((m) => m.chat_id === chatId).length;
        tg.pushMessage({ chatId, userId: chatId, text: prompt('telegram', scenario) });
        await waitFor(
          () => tg.sent.some((m, at) => at >= before && m.chat_id === chatId && String(m.text).includes('done SURF')),
          { what: 'the Telegram answer' },
        );
        seen.set(`telegram ${scenario}`, requestsOf('telegram', scenario));

        const completions = await fetch(`${gw.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'hermes',
            messages: [{ role: 'user', content: prompt('completions', scenario) }],
          }),
        });
        expect(completions.status).toBe(200);
        expect(JSON.stringify(await completions.json())).toContain(`done SURF-completions-${scenario}`);
        seen.set(`completions ${scenario}`, requestsOf('completions', scenario));

        const responses = await fetch(`${gw.url}/v1/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'hermes', input: prompt('responses', scenario) }),
        });
        expect(responses.status).toBe(200);
        expect(JSON.stringify(await responses.json())).toContain(`done SURF-responses-${scenario}`);
        seen.set(`responses ${scenario}`, requestsOf('responses', scenario));
      }
      // `delivered` once the run ended and its (empty: --deliver none) delivery is done
      await waitFor(() => cronStatuses(home).join() === 'delivered,delivered', { what: 'both cron jobs to run' });
      for (const scenario of SCENARIOS) seen.set(`cron ${scenario}`, requestsOf('cron', scenario));
    } finally {
      await gw.stop();
    }

    // all at once, so a failure shows every surface that differs
    const surfaces = ['oneshot', 'chat', 'telegram', 'completions', 'responses', 'cron'];
    const expected = new Map(
      SCENARIOS.flatMap((scenario) =>
        surfaces.map((surface) => [`${surface} ${scenario}`, EXPECTED[scenario]] as const),
      ),
    );
    expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(expected));
  }, 120_000);
});
