// display.runtime_metadata_footer through `hermes gateway run` (real grammy against the fake Bot API,
// the fake model reporting usage): turned on for Telegram alone (gateway.platforms.telegram), a chat
// answer ends with `— model · tokens in / out · duration`; the footer is not in the history the model
// is sent next, and the API platform's JSON never carries it (its usage field has the tokens).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();
const API_KEY = 'footer-test-key-0123456789';

describe('the runtime metadata footer through hermes gateway run', () => {
  it('ends Telegram answers with model, tokens and duration; never in the history or the API JSON', async () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      'gateway:\n  batch_ms: 0\n  platforms:\n    telegram:\n      runtime_metadata_footer: true\n',
    );
    openai.server.respond((req) => {
      const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
      return {
        text: `Answer to ${String(messages.at(-1)?.content ?? '')}`,
        usage: { prompt_tokens: 1234, completion_tokens: 56 },
      };
    });
    const env = telegramGatewayEnv({
      home,
      modelUrl: openai.server.url,
      telegram: telegram.server,
      allowedUsers: '42',
    });
    const gw = await spawnGateway({ ...env, API_SERVER_KEY: API_KEY });
    const answered = (what: string) =>
      waitFor(() => telegram.server.sent.find((m) => m.text.includes(what)), { what: `the answer "${what}"` });
    try {
      telegram.server.pushMessage({ chatId: 42, userId: 42, text: 'hello' });
      const first = await answered('Answer to hello');
      expect(first.text).toMatch(/^Answer to hello\n\n— test-model · 1\.2k in \/ 56 out · \d+\.\d s$/);

      // the next turn's history holds the answer as the model wrote it, without the footer
      telegram.server.pushMessage({ chatId: 42, userId: 42, text: 'again' });
      await answered('Answer to again');
      const chats = openai.server.requests.filter((r) => r.path === '/v1/chat/completions');
      const history = (chats.at(-1)?.body?.messages ?? []) as { role: string; content: string }[];
      expect(history.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['Answer to hello']);

      // the API platform: plain JSON, the tokens in `usage`
      const res = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'over the API' }] }),
      });
      const body = (await res.json()) as {
        choices: { message: { content: string } }[];
        usage: { prompt_tokens: number; completion_tokens: number };
      };
      expect(res.status).toBe(200);
      expect(body.choices[0]?.message.content).toBe('Answer to over the API');
      expect(body.usage).toMatchObject({ prompt_tokens: 1234, completion_tokens: 56 });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
