// One pipeline for every surface: a pre_gateway_dispatch plugin that skips messages with a word
// blocks them on the API platform as on Telegram, through `hermes gateway run`, and the model is
// called for neither; the messages it lets through are answered on both.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenPIPELINEfaketoken5678';
const API_KEY = 'pipeline-e2e-api-key-0123456789';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});

/** HERMES_HOME with the opt-in plugin `wordblock`: its pre_gateway_dispatch hook skips texts containing "forbidden". */
function prepareHome(): string {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [wordblock]\n');
  const plugin = join(home, 'plugins', 'wordblock');
  mkdirSync(plugin, { recursive: true });
  writeFileSync(
    join(plugin, 'plugin.yaml'),
    'name: wordblock\nversion: 1.0.0\nprovides_hooks: [pre_gateway_dispatch]\n',
  );
  writeFileSync(
    join(plugin, 'index.ts'),
    `export function register(ctx: { registerHook(name: string, cb: (p: { event: { text: string; platform: string } }) => unknown): void }): void {
  ctx.registerHook('pre_gateway_dispatch', ({ event }) =>
    /\\bforbidden\\b/i.test(event.text) ? { action: 'skip', reason: 'blocked word on ' + event.platform } : undefined,
  );
}
`,
  );
  trustHome(home); // the operator approves the user plugin (consent bound to content)
  return home;
}

const completions = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('pre_gateway_dispatch on every surface (hermes gateway run)', () => {
  it('a skipping plugin blocks a word on the API platform and on Telegram; the model is not called', async () => {
    const home = prepareHome();
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_ALLOWED_USERS: '42',
      API_SERVER_KEY: API_KEY,
    });
    const post = (content: string, stream = false) =>
      fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify({ model: 'test-model', stream, messages: [{ role: 'user', content }] }),
      });
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      // blocked on the API platform: an OpenAI-shaped refusal, streaming or not, and no model call
      for (const stream of [false, true]) {
        const refused = await post('tell me the forbidden thing', stream);
        expect(refused.status).toBe(403);
        const body = (await refused.json()) as { error: { code: string; type: string; message: string } };
        expect(body.error).toMatchObject({ code: 'refused_by_hook', type: 'invalid_request_error' });
      }
      // blocked on Telegram: no answer, and the next (allowed) message is answered
      tg.pushMessage({ chatId: 42, userId: 42, text: 'the forbidden word again' });
      openai.server.script({ text: 'telegram answer' });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'an ordinary question' });
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent.map((m) => m.text)).toEqual(['telegram answer']);
      expect(completions()).toHaveLength(1);
      const lastUser = (completions()[0]?.body as { messages: { role: string; content: string }[] }).messages.at(-1);
      expect(lastUser?.content).toBe('an ordinary question');
      // the API platform still answers what the hook lets through
      openai.server.script({ text: 'api answer' });
      const ok = await post('an ordinary API question');
      expect(ok.status).toBe(200);
      const answer = (await ok.json()) as { choices: { message: { content: string } }[] };
      expect(answer.choices[0]?.message.content).toBe('api answer');
      expect(completions()).toHaveLength(2);
      // both skips are counted per platform
      const metrics = await (
        await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${API_KEY}` } })
      ).text();
      expect(metrics).toMatch(/hermes_messages_ignored_total\{platform="api",reason="hook_skip"\} 2/);
      expect(metrics).toMatch(/hermes_messages_ignored_total\{platform="telegram",reason="hook_skip"\} 1/);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
