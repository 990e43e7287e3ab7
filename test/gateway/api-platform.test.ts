import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

describe('hermes gateway run: health and the API platform', () => {
  it('serves /health and answers through the real openai client, streaming and not, with sessions', async () => {
    const home = tempHome();
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    try {
      const health = await fetch(`${gw.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', platforms: {} });

      const client = new OpenAI({ apiKey: 'unused', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      openai.server.script({ text: 'non-streamed answer' }, { text: 'a streamed answer' });
      const done = await client.chat.completions.create({
        model: 'hermes',
        user: 'alice',
        messages: [{ role: 'user', content: 'first' }],
      });
      expect(done.choices[0]?.message.content).toBe('non-streamed answer');
      const stream = await client.chat.completions.create({
        model: 'hermes',
        user: 'alice',
        stream: true,
        messages: [{ role: 'user', content: 'second' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('a streamed answer');
      // same `user`: the second turn carried the first one as history
      const messages = (openai.server.requests.at(-1)?.body as { messages: { role: string; content: string }[] })
        .messages;
      expect(messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
        'first',
        'non-streamed answer',
        'second',
      ]);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('requires the bearer key when API_SERVER_KEY is set', async () => {
    const home = tempHome();
    writeFileSync(join(home, '.env'), 'API_SERVER_KEY=sk-gateway-key-0123456789\n');
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    try {
      const anon = new OpenAI({ apiKey: 'wrong-key', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      await expect(
        anon.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }),
      ).rejects.toMatchObject({
        status: 401,
      });
      openai.server.script({ text: 'authorised' });
      const ok = new OpenAI({ apiKey: 'sk-gateway-key-0123456789', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      const r = await ok.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] });
      expect(r.choices[0]?.message.content).toBe('authorised');
    } finally {
      await gw.stop();
    }
  });

  it('refuses a non-loopback host without a key (exit 78)', async () => {
    const home = tempHome();
    await expect(
      spawnGateway({
        HERMES_HOME: home,
        OPENAI_BASE_URL: openai.server.url,
        HERMES_INFERENCE_MODEL: 'm',
        HERMES_GATEWAY_HOST: '0.0.0.0',
      }),
    ).rejects.toThrow(/exited 78: .*refusing to listen on 0\.0\.0\.0 without API_SERVER_KEY/);
  });
});
