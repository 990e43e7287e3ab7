// The API platform's errors in OpenAI's shape through `hermes gateway run` (issue 29, items 5 and
// 6): a body that is not JSON is 415 on both routes, naming what was sent; a failed turn keeps the
// model's own message and carries its stable code (non-streamed 502, the stream's error event with
// `code` and `param`); a Responses item the gateway does not take is named with its index and type.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
let gw: RunningGateway;

beforeAll(async () => {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), 'agent:\n  api_max_retries: 0\n');
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
  });
});
afterAll(async () => {
  await gw?.stop();
});

interface OpenAiError {
  error: { message: string; type: string; code: string | null; param: string | null };
}

const post = (path: string, body: Uint8Array | string, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}${path}`, { method: 'POST', headers, body });

const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('API errors in OpenAI shape', () => {
  it('a body that is not JSON is answered 415 on both routes, naming the Content-Type sent', async () => {
    for (const path of ['/v1/chat/completions', '/v1/responses']) {
      const body = path === '/v1/responses' ? JSON.stringify({ input: 'hi' }) : chatBody();
      // bytes: fetch adds no content-type of its own
      const none = await post(path, Buffer.from(body));
      expect(none.status).toBe(415);
      expect(((await none.json()) as OpenAiError).error).toEqual({
        message: 'no Content-Type: send application/json',
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
        param: null,
      });
      const plain = await post(path, body, { 'content-type': 'text/plain' });
      expect(plain.status).toBe(415);
      expect(((await plain.json()) as OpenAiError).error.message).toBe(
        'unsupported Content-Type text/plain: send application/json',
      );
      // JSON with a charset is JSON
      openai.server.script({ text: 'fine' });
      const json = await post(path, body, { 'content-type': 'application/json; charset=utf-8' });
      expect(json.status).toBe(200);
    }
    expect(openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
  });

  it("a failed turn keeps the model's own message and its code: 502 with code, the stream's error event with code and param", async () => {
    const said = "The model 'm' does not exist or you do not have access to it.";
    openai.server.script({
      status: 404,
      body: { error: { message: said, type: 'invalid_request_error', code: null } },
    });
    const plain = await post('/v1/chat/completions', chatBody(), { 'content-type': 'application/json' });
    expect(plain.status).toBe(502);
    expect(((await plain.json()) as OpenAiError).error).toEqual({
      message: `The model server answered with an error, HTTP 404: ${said.replace(/\.$/, '')} (HERMES_MODEL_HTTP).`,
      type: 'server_error',
      code: 'HERMES_MODEL_HTTP',
      param: null,
    });
    openai.server.script({
      status: 404,
      body: { error: { message: said, type: 'invalid_request_error', code: null } },
    });
    const streamed = await post('/v1/chat/completions', chatBody({ stream: true }), {
      'content-type': 'application/json',
    });
    const events = (await streamed.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice('data: '.length)) as Partial<OpenAiError>);
    const error = events.find((e) => e.error !== undefined)?.error;
    expect(error).toEqual({
      message: `The model server answered with an error, HTTP 404: ${said.replace(/\.$/, '')} (HERMES_MODEL_HTTP).`,
      type: 'server_error',
      code: 'HERMES_MODEL_HTTP',
      param: null,
    });
  });

  it('a Responses function_call_output item is named with its index and type; no model request is made', async () => {
    const before = openai.server.requests.length;
    const res = await post(
      '/v1/responses',
      JSON.stringify({
        input: [
          { role: 'user', content: 'what is the weather?' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"temp": 21}' },
        ],
      }),
      { 'content-type': 'application/json' },
    );
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as OpenAiError;
    expect(error.param).toBe('input[1].type');
    expect(error.message).toMatch(/^input\[1\]: a function_call_output item is not supported/);
    expect(openai.server.requests.length).toBe(before);
  });
});

describe('API over a user limit', () => {
  it('429 with Retry-After and rate_limit_exceeded, streamed or not, on both routes; no model request is made', async () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      'access:\n  tiers:\n    admin:\n      limits:\n        turns_per_minute: 1\n    user:\n      limits:\n        turns_per_minute: 1\n',
    );
    const limited = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    try {
      const json = { 'content-type': 'application/json' };
      openai.server.script({ text: 'the one turn' });
      const first = await fetch(`${limited.url}/v1/chat/completions`, {
        method: 'POST',
        headers: json,
        body: chatBody(),
      });
      expect(first.status).toBe(200);
      const asked = openai.server.requests.length;
      const bodies = [
        ['/v1/chat/completions', chatBody()],
        ['/v1/chat/completions', chatBody({ stream: true })],
        ['/v1/responses', JSON.stringify({ input: 'hi' })],
        ['/v1/responses', JSON.stringify({ input: 'hi', stream: true })],
      ] as const;
      for (const [path, body] of bodies) {
        const res = await fetch(`${limited.url}${path}`, { method: 'POST', headers: json, body });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        const { error } = (await res.json()) as OpenAiError;
        expect(error.code).toBe('rate_limit_exceeded');
        expect(error.type).toBe('requests');
        expect(error.message).toMatch(/^You have reached your limit of 1 turns a minute\. It resets in \d+ (s|min)/);
      }
      expect(openai.server.requests.length).toBe(asked);
    } finally {
      expect(await limited.stop()).toBe(0);
    }
  });
});
