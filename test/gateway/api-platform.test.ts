import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitForValue } from '../helpers/wait-for.js';
import { rawRequest } from '../security/lib/raw-http.js';

function rowCounts(home: string): { sessions: number; messages: number } {
  const db = new Database(join(home, 'state.db'), { readonly: true });
  try {
    const count = (table: string) => db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n ?? 0;
    return { sessions: count('sessions'), messages: count('messages') };
  } finally {
    db.close();
  }
}

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
      // healthy (200) at once; `ok` once the web chat platform has connected (`degraded` until then,
      // which a loaded machine can make last past the start)
      const first = await fetch(`${gw.url}/health`);
      expect(first.status).toBe(200);
      const health = await waitForValue(
        async () => (await (await fetch(`${gw.url}/health`)).json()) as { status: string },
        (body) => body.status === 'ok',
        { what: '/health ok' },
      );
      expect(health).toMatchObject({ status: 'ok', platforms: {} });

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
      expect(gw.stderr()).not.toMatch(/keyless/);
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
  it('refuses gateway.allowed_hosts beyond loopback without a key (exit 78): a reverse proxy would open it to anyone', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  allowed_hosts: [bot.example.org]\n');
    await expect(
      spawnGateway({ HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'm' }),
    ).rejects.toThrow(
      /exited 78: .*refusing to answer gateway\.allowed_hosts bot\.example\.org without API_SERVER_KEY/,
    );
  });
  it('reports the tokens the model reported as usage (summed over the turn), streaming included', async () => {
    const gw = await spawnGateway({
      HERMES_HOME: tempHome(),
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      openai.server.script(
        { toolCalls: [{ name: 'no_such_tool', arguments: {} }], usage: { prompt_tokens: 100, completion_tokens: 10 } },
        { text: 'after a tool', usage: { prompt_tokens: 130, completion_tokens: 5 } },
        { text: 'streamed', usage: { prompt_tokens: 40, completion_tokens: 3 } },
      );
      const done = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'q' }] });
      expect(done.usage).toEqual({ prompt_tokens: 230, completion_tokens: 15, total_tokens: 245 });
      const stream = await client.chat.completions.create({
        model: 'x',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'q' }],
      });
      let usage: unknown = null;
      for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
      expect(usage).toEqual({ prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 });
    } finally {
      await gw.stop();
    }
  });

  it('stores nothing for stateless requests (no session key): 20 leave sessions and messages unchanged', async () => {
    const home = tempHome();
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'm',
    });
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: `${gw.url}/v1`, maxRetries: 0 });
      openai.server.script({ text: 'keyed' });
      await client.chat.completions.create({ model: 'x', user: 'kept', messages: [{ role: 'user', content: 'hi' }] });
      const before = rowCounts(home);
      expect(before.sessions).toBe(1);
      for (let i = 0; i < 20; i++) {
        openai.server.script({ text: `stateless ${i}` });
        const r = await client.chat.completions.create({
          model: 'x',
          messages: [
            { role: 'user', content: 'earlier' },
            { role: 'assistant', content: 'earlier answer' },
            { role: 'user', content: `q${i}` },
          ],
        });
        expect(r.choices[0]?.message.content).toBe(`stateless ${i}`);
      }
      expect(rowCounts(home)).toEqual(before);
    } finally {
      await gw.stop();
    }
  });

  it('says on stderr that a keyless API is only safe on loopback, and refuses a foreign Host with 421', async () => {
    const home = tempHome();
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'm',
    });
    try {
      expect(gw.stderr()).toMatch(/API platform is keyless .* only safe on loopback/);
      expect(readFileSync(join(home, 'logs', 'gateway.log'), 'utf8')).toMatch(/API platform is keyless/);
      const body = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'rebound' }] });
      const headers = { 'content-type': 'application/json' };
      const evil = await rawRequest(
        gw.url,
        'POST',
        '/v1/chat/completions',
        { ...headers, host: 'evil.example.com' },
        body,
      );
      expect(evil?.status).toBe(421);
      expect(JSON.parse(evil?.body ?? '{}')).toMatchObject({ error: { code: 'misdirected_request' } });
      expect((await rawRequest(gw.url, 'GET', '/health', { host: 'localhost' }))?.status).toBe(200);
    } finally {
      await gw.stop();
    }
  });
});
