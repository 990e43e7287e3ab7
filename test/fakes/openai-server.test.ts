import OpenAI, {
  APIConnectionError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeOpenAI, scriptToolTurn, startFakeOpenAI } from './openai-server.js';

let fake: FakeOpenAI;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  client = new OpenAI({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const ask = (content = 'hi') => ({ model: 'fake-model', messages: [{ role: 'user' as const, content }] });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('fake OpenAI: non-streamed', () => {
  it('answers a scripted text reply as a chat.completion with usage, and records the request', async () => {
    fake.script({ text: 'hello there' });
    const completion = await client.chat.completions.create(ask('hi'));
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'hello there' });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body).toEqual({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(typeof request?.at).toBe('number');
  });

  it('answers tool calls with default ids, serialised arguments and finish_reason tool_calls', async () => {
    fake.script(...scriptToolTurn('get_weather', { city: 'Paris' }, 'Sunny in Paris.'));
    const first = await client.chat.completions.create(ask('weather?'));
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(first.choices[0]?.message.content).toBeNull();
    expect(first.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(fake.pending()).toBe(1);

    const second = await client.chat.completions.create({
      model: 'fake-model',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: 'call_1', content: '22°C, clear' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('Sunny in Paris.');
    expect(fake.pending()).toBe(0);
    expect(fake.requests[1]?.body?.messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '22°C, clear',
    });
  });

  it('keeps explicit ids, string arguments and text alongside tool calls', async () => {
    fake.script({
      text: 'Checking both.',
      toolCalls: [
        { name: 'a', arguments: '{"x":1}', id: 'call_custom' },
        { name: 'b', arguments: {} },
      ],
    });
    const message = (await client.chat.completions.create(ask())).choices[0]?.message;
    expect(message?.content).toBe('Checking both.');
    expect(message?.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.arguments] : []))).toEqual([
      ['call_custom', '{"x":1}'],
      ['call_1', '{}'],
    ]);
  });

  it('uses the responder when the queue is empty, scripted replies first', async () => {
    fake.respond((request) => ({ text: `echo: ${JSON.stringify(request.body?.messages)}` }));
    fake.script({ text: 'scripted' });
    expect((await client.chat.completions.create(ask('one'))).choices[0]?.message.content).toBe('scripted');
    expect((await client.chat.completions.create(ask('two'))).choices[0]?.message.content).toBe(
      'echo: [{"role":"user","content":"two"}]',
    );
  });

  it('answers 500 "fake: no scripted reply" when nothing is scripted', async () => {
    const error = await rejection(client.chat.completions.create(ask()));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).message).toContain('fake: no scripted reply');
  });

  it('waits delayMs before answering', async () => {
    fake.script({ text: 'late', delayMs: 150 });
    const started = performance.now();
    const completion = await client.chat.completions.create(ask());
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(completion.choices[0]?.message.content).toBe('late');
  });
});

describe('fake OpenAI: streamed', () => {
  it('streams text as a role delta, several content pieces, a finish chunk and [DONE]', async () => {
    fake.script({ text: 'The quick brown fox jumps over the lazy dog.', chunkDelayMs: 5 });
    const stream = await client.chat.completions.create({ ...ask(), stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const pieces = chunks.map((c) => c.choices[0]?.delta.content).filter((p): p is string => !!p);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('The quick brown fox jumps over the lazy dog.');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(fake.requests[0]?.body?.stream).toBe(true);
  });

  it('streams tool calls with index/id/name first and arguments split over chunks, plus a usage chunk', async () => {
    fake.script({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius', days: 3 } },
        { name: 'get_time', arguments: { tz: 'Europe/Paris' } },
      ],
    });
    const stream = await client.chat.completions.create({
      ...ask(),
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls: { id?: string; name?: string; args: string; pieces: number }[] = [];
    let finish: string | null | undefined;
    let usageTotal: number | undefined;
    for await (const chunk of stream) {
      if (chunk.usage) usageTotal = chunk.usage.total_tokens;
      const choice = chunk.choices[0];
      if (choice === undefined) continue;
      finish = choice.finish_reason ?? finish;
      for (const delta of choice.delta.tool_calls ?? []) {
        calls[delta.index] ??= { args: '', pieces: 0 };
        const call = calls[delta.index]!;
        if (delta.id !== undefined) {
          expect(call.id).toBeUndefined(); // the id comes once, in the first piece
          call.id = delta.id;
          call.name = delta.function?.name;
        }
        if (delta.function?.arguments) {
          call.args += delta.function.arguments;
          call.pieces += 1;
        }
      }
    }
    expect(calls.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 'call_1', name: 'get_weather' },
      { id: 'call_2', name: 'get_time' },
    ]);
    expect(JSON.parse(calls[0]?.args ?? '')).toEqual({ city: 'Paris', unit: 'celsius', days: 3 });
    expect(JSON.parse(calls[1]?.args ?? '')).toEqual({ tz: 'Europe/Paris' });
    expect(calls.every((c) => c.pieces > 1)).toBe(true);
    expect(finish).toBe('tool_calls');
    expect(usageTotal).toBeGreaterThan(0);
  });

  it('is accumulated correctly by the SDK stream helper', async () => {
    fake.script({ text: 'Looking.', toolCalls: [{ name: 'lookup', arguments: { q: 'hermes' }, id: 'call_x' }] });
    const stream = client.chat.completions.stream(ask());
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Looking.');
    expect(final.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_x', type: 'function', function: { name: 'lookup', arguments: '{"q":"hermes"}' } },
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });
});

describe('fake OpenAI: errors', () => {
  it('surfaces 429 as RateLimitError with the retry-after header and error code', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '0' } });
    const error = await rejection(client.chat.completions.create(ask()));
    expect(error).toBeInstanceOf(RateLimitError);
    const rateLimit = error as RateLimitError;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers.get('retry-after')).toBe('0');
    expect(rateLimit.code).toBe('rate_limit_exceeded');
    expect(rateLimit.type).toBe('requests');
  });

  it('lets the SDK retry a 429 carrying retry-after-ms', async () => {
    const retrying = new OpenAI({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 1 });
    fake.script({ status: 429, headers: { 'retry-after-ms': '10' } }, { text: 'after retry' });
    const completion = await retrying.chat.completions.create(ask());
    expect(completion.choices[0]?.message.content).toBe('after retry');
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces 500 as InternalServerError, with a custom body sent verbatim', async () => {
    fake.script({ status: 500 }, { status: 503, body: { error: { message: 'overloaded', type: 'server_error' } } });
    const first = await rejection(client.chat.completions.create(ask()));
    expect(first).toBeInstanceOf(InternalServerError);
    expect((first as InternalServerError).status).toBe(500);
    const second = await rejection(client.chat.completions.create({ ...ask(), stream: true }));
    expect(second).toBeInstanceOf(InternalServerError);
    expect((second as InternalServerError).message).toBe('503 overloaded');
  });

  it('a hanging reply never answers; aborting the request rejects with APIUserAbortError', async () => {
    fake.script({ text: 'never sent', hang: true }, { text: 'next one' });
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 200);
    const error = await rejection(client.chat.completions.create(ask(), { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect((await client.chat.completions.create(ask())).choices[0]?.message.content).toBe('next one');
  });

  it('aborting during a slow stream ends it early', async () => {
    // role + 3 content pieces + finish = 5 chunks, each after 200 ms: about 1 s if not aborted.
    fake.script({ text: 'a b c d e f g h i j k l', chunkDelayMs: 200 });
    const controller = new AbortController();
    const started = performance.now();
    const stream = await client.chat.completions.create({ ...ask(), stream: true }, { signal: controller.signal });
    let received = 0;
    // The SDK ends the iteration quietly when its own signal aborts.
    for await (const _chunk of stream) {
      received += 1;
      if (received === 2) controller.abort();
    }
    expect(received).toBe(2);
    expect(performance.now() - started).toBeLessThan(800);
  });

  it('answers unknown routes with an OpenAI-style 404', async () => {
    const response = await fetch(`${fake.url}/nope`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/nope)', type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('answers 400 to a chat request whose body is not JSON, recording the raw body', async () => {
    const response = await fetch(`${fake.url}/chat/completions`, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(400);
    expect(fake.requests[0]).toMatchObject({ body: undefined, rawBody: 'not json' });
  });
});

describe('fake OpenAI: models, keys, lifecycle', () => {
  it('lists and retrieves models', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['fake-model']);
    expect((await client.models.retrieve('fake-model')).object).toBe('model');
    expect(await rejection(client.models.retrieve('gpt-unknown'))).toBeInstanceOf(NotFoundError);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/models',
      'GET /v1/models/fake-model',
      'GET /v1/models/gpt-unknown',
    ]);
  });

  it('with requireKey, answers 401 to a wrong key on every route and serves the right one', async () => {
    const guarded = await startFakeOpenAI({ requireKey: 'sk-right', models: ['m1', 'm2'] });
    try {
      const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: guarded.url, maxRetries: 0 });
      guarded.script({ text: 'not for you' });
      const chatError = await rejection(wrong.chat.completions.create(ask()));
      expect(chatError).toBeInstanceOf(AuthenticationError);
      expect((chatError as AuthenticationError).code).toBe('invalid_api_key');
      expect(await rejection(wrong.models.list())).toBeInstanceOf(AuthenticationError);
      expect(guarded.pending()).toBe(1); // a refused request does not consume the script

      const right = new OpenAI({ apiKey: 'sk-right', baseURL: guarded.url, maxRetries: 0 });
      expect((await right.models.list()).data.map((m) => m.id)).toEqual(['m1', 'm2']);
      expect((await right.chat.completions.create(ask())).choices[0]?.message.content).toBe('not for you');
      expect(guarded.requests).toHaveLength(4);
    } finally {
      await guarded.close();
    }
  });

  it('reset() clears the queue, responder, records and id counters', async () => {
    fake.script({ toolCalls: [{ name: 'f', arguments: {} }] }, { text: 'left over' });
    fake.respond(() => ({ text: 'responder' }));
    await client.chat.completions.create(ask());
    fake.reset();
    expect(fake.requests).toHaveLength(0);
    expect(fake.pending()).toBe(0);
    expect(await rejection(client.chat.completions.create(ask()))).toBeInstanceOf(InternalServerError);
    fake.script({ toolCalls: [{ name: 'f', arguments: {} }] });
    const message = (await client.chat.completions.create(ask())).choices[0]?.message;
    expect(message?.tool_calls?.[0]?.id).toBe('call_1');
  });

  it('close() ends hanging requests and stops listening', async () => {
    const own = await startFakeOpenAI();
    const ownClient = new OpenAI({ apiKey: 'k', baseURL: own.url, maxRetries: 0 });
    own.script({ hang: true });
    const hanging = rejection(ownClient.chat.completions.create(ask()));
    await vi.waitFor(() => expect(own.requests).toHaveLength(1));
    await own.close();
    expect(await hanging).toBeInstanceOf(APIConnectionError);
    expect(await rejection(fetch(`${own.url}/models`))).toBeInstanceOf(TypeError);
    await own.close(); // idempotent
  });
});
