// Issue 19 acceptance (model providers), through the built CLI: `hermes gateway run` with real grammy
// against the fake Bot API and two fake OpenAI servers. `/model other:model-b` in one Telegram chat
// sends that chat's next turns to the other server and model while another chat stays on the default,
// survives a restart, and shows in /status; model.fallback answers when the primary returns 500s,
// saying so once. Plus `hermes model list` (table, --json, a user plugin overriding a bundled one).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const OTHER_KEY = 'sk-other-provider-key-0123456789';
let tg: FakeTelegram;
let primary: FakeOpenAI;
let other: FakeOpenAI;
beforeAll(async () => {
  [tg, primary, other] = await Promise.all([
    startFakeTelegram({ token: TOKEN, longPollCapMs: 200 }),
    startFakeOpenAI(),
    startFakeOpenAI(),
  ]);
});
afterAll(async () => {
  await Promise.all([tg.close(), primary.close(), other.close()]);
});
beforeEach(() => {
  tg.reset();
  primary.reset();
  other.reset();
});

const chats = (server: FakeOpenAI) => server.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** A HERMES_HOME with the `other` provider as a user plugin (enabled) and `extra` config lines. */
function homeWithOther(extra = ''): string {
  const home = tempHome();
  const dir = join(home, 'plugins', 'model-providers', 'other');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: model-provider-other\nversion: 1.0.0\nkind: backend\n');
  writeFileSync(
    join(dir, 'index.ts'),
    `export function register(ctx) {
  ctx.registerModelProvider({ name: 'other', baseUrl: ${JSON.stringify(other.url)}, apiKeyEnv: 'OTHER_API_KEY', defaultModel: 'model-b' });
}
`,
  );
  writeFileSync(
    join(home, 'config.yaml'),
    `plugins:\n  enabled: [model-providers/other]\nagent:\n  api_max_retries: 1\n${extra}`,
  );
  trustHome(home); // the operator approves the user plugin (issue #28: consent bound to content)
  return home;
}

const env = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: primary.url,
  HERMES_INFERENCE_MODEL: 'model-a',
  OTHER_API_KEY: OTHER_KEY,
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42,43,44',
  // each chat switches its own model: /model is for admins (docs/security.md "Tiers and budgets")
  TELEGRAM_ADMIN_USERS: '42,43,44',
});

/** Sends `text` from chat `chatId` and resolves with the bot's next message to that chat. */
async function ask(chatId: number, text: string): Promise<string> {
  const before = tg.sent.filter((m) => m.chat_id === chatId).length;
  tg.pushMessage({ chatId, userId: chatId, text });
  await waitFor(() => tg.sent.filter((m) => m.chat_id === chatId).length > before);
  return String(tg.sent.filter((m) => m.chat_id === chatId)[before]?.text ?? '');
}

describe('model providers through hermes gateway run', () => {
  it('/model switches one chat to another provider and model, the other chat stays, and it survives a restart', async () => {
    const home = homeWithOther();
    primary.respond(() => ({ text: 'from A' }));
    other.respond(() => ({ text: 'from B' }));
    let gw = await spawnGateway(env(home));
    try {
      expect(await ask(42, 'hi')).toBe('from A');
      expect(await ask(42, '/model other:model-b')).toBe('This chat now uses other:model-b.');
      expect(await ask(42, 'and now?')).toBe('from B');
      expect(await ask(43, 'me too?')).toBe('from A');
      expect(chats(other).map((r) => r.body?.model)).toEqual(['model-b']);
      expect(chats(other)[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
      expect(chats(primary).map((r) => r.body?.model)).toEqual(['model-a', 'model-a']);
      expect(await ask(42, '/status')).toContain('Model: other:model-b');
      expect(await ask(43, '/status')).toContain('Model: custom:model-a');
      const overview = await ask(42, '/model');
      expect(overview).toContain('Model: other:model-b (this chat)');
      expect(overview).toContain('Default: custom:model-a');
      expect(overview).toMatch(/other \(default model-b\)/);
      expect(await ask(42, '/model nowhere:x')).toContain(
        'unknown model provider "nowhere" (known: alibaba-coding-plan, custom,',
      );
      // a chat whose first message is /model: its session is opened for it
      expect(await ask(44, '/model other:model-c')).toBe('This chat now uses other:model-c.');
      expect(await ask(44, 'first question')).toBe('from B');
      expect(chats(other).map((r) => r.body?.model)).toEqual(['model-b', 'model-c']);
      expect(await gw.stop()).toBe(0);

      gw = await spawnGateway(env(home));
      expect(await ask(42, 'after the restart')).toBe('from B');
      expect(await ask(43, 'after the restart')).toBe('from A');
      expect(chats(other)).toHaveLength(3);
      expect(chats(primary)).toHaveLength(3);
    } finally {
      await gw.stop();
    }
    expect(gw.stderr()).not.toContain(OTHER_KEY);
  });

  it('model.fallback answers when the primary returns 500s, and the reply says so once', async () => {
    const home = homeWithOther('model:\n  fallback: other:model-b\n');
    primary.respond(() => ({ status: 500 }));
    other.respond(() => ({ text: 'the fallback speaking' }));
    const gw = await spawnGateway(env(home));
    try {
      const reply = await ask(42, 'are you there?');
      expect(reply).toBe('the fallback speaking\n\n(answered by other:model-b: the primary model failed)');
      expect(chats(primary)).toHaveLength(2); // the request and its one retry (agent.api_max_retries: 1)
      expect(chats(other).map((r) => r.body?.model)).toEqual(['model-b']);
    } finally {
      await gw.stop();
    }
    // the primary's error is logged (gateway.log), with both names
    const log = readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('the primary model custom:model-a failed; model.fallback other:model-b answers');
    expect(log).toContain('HTTP 500');
  });
});

describe('hermes model list', () => {
  it('lists the bundled profiles and a user one, key present yes/no but never the key', async () => {
    const home = homeWithOther();
    const run = await runHermes(['model', 'list'], { env: { HERMES_HOME: home, OTHER_API_KEY: OTHER_KEY } });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/PROVIDER\s+BASE URL\s+KEY\s+DEFAULT MODEL\s+CONTEXT/);
    expect(lines.find((l) => /^\*\s+custom\s/.test(l))).toContain('model.api_key: not set');
    expect(lines.find((l) => /\sopenrouter\s/.test(l))).toMatch(
      /https:\/\/openrouter\.ai\/api\/v1\s+OPENROUTER_API_KEY: not set\s+openai\/gpt-4o-mini\s+128000/,
    );
    expect(lines.find((l) => /\sother\s/.test(l))).toContain('OTHER_API_KEY: set');
    expect(run.stdout).not.toContain(OTHER_KEY);
  });

  it('--json, --provider marks the active one, and a user plugin of the same name overrides the bundled one', async () => {
    const home = homeWithOther();
    // a user plugin is opt-in: enabling model-providers/openai picks the user's folder over the bundled one
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [model-providers/other, model-providers/openai]\n');
    const dir = join(home, 'plugins', 'model-providers', 'openai');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: my-openai\nversion: 1.0.0\nkind: backend\n');
    writeFileSync(
      join(dir, 'index.ts'),
      `export function register(ctx) {
  ctx.registerModelProvider({ name: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MY_OPENAI_KEY', defaultModel: 'gpt-mine', contextLength: 32000 });
}
`,
    );
    trustHome(home); // the operator approves the plugin just written
    const run = await runHermes(['model', 'list', '--json', '--provider', 'openai'], {
      env: { HERMES_HOME: home, MY_OPENAI_KEY: 'sk-mine-0123456789' },
    });
    expect(run.code).toBe(0);
    const entries = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(entries.map((e) => e.name)).toEqual([
      'alibaba-coding-plan',
      'custom',
      'ollama',
      'openai',
      'openrouter',
      'other',
    ]);
    expect(entries.find((e) => e.name === 'openai')).toEqual({
      name: 'openai',
      active: true,
      base_url: 'http://127.0.0.1:9/v1',
      api_key_env: 'MY_OPENAI_KEY',
      key_set: true,
      default_model: 'gpt-mine',
      context_length: 32000,
      plugin: 'model-providers/openai',
    });
    expect(entries.find((e) => e.name === 'custom')?.active).toBe(false);
    expect(run.stdout).not.toContain('sk-mine-0123456789');
  });
});

describe('hermes doctor with a provider', () => {
  it('probes the profile of --provider (its URL, key and default model), and names an unknown provider', async () => {
    const home = homeWithOther();
    other.respond(() => ({ text: 'O' }));
    const r = await runHermes(['doctor', '--provider', 'other'], {
      env: { HERMES_HOME: home, OTHER_API_KEY: OTHER_KEY },
    });
    expect(r.stdout).toMatch(/✓ model: model-b at http:\/\/127\.0\.0\.1:\d+\/v1 answered a one-token completion/);
    expect(chats(other)[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    expect(chats(primary)).toHaveLength(0);
    const bad = await runHermes(['doctor', '--provider', 'nowhere'], { env: { HERMES_HOME: home } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /✗ model: model\.provider: unknown model provider "nowhere" \(known: alibaba-coding-plan, custom, /,
    );
  });
});
