// The API platform driven by the official `openai` client, against the built `hermes gateway run`
// and the fake model: models, chat completions (stream and not, text parts), the Responses API
// (stream and not, previous_response_id chaining, forks, store: false), and the body schemas'
// 400s naming the field.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { rawRequest } from '../security/lib/raw-http.js';

const KEY = 'sk-api-client-test-0123456789';
const openai = useFakeOpenAI();
let gw: RunningGateway;
let home: string;
let client: OpenAI;

interface ModelMessage {
  role: string;
  content: string | null;
}

/** The messages of the model request number `index` (default: the last), system prompt apart. */
function modelRequest(index = -1): { system: string; messages: string[] } {
  const body = openai.server.requests.at(index)?.body as { messages: ModelMessage[] };
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  return { system, messages: body.messages.filter((m) => m.role !== 'system').map((m) => `${m.role}: ${m.content}`) };
}

function sessionCount(): number {
  const db = new Database(join(home, 'state.db'), { readonly: true });
  try {
    return db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM sessions').get()?.n ?? 0;
  } finally {
    db.close();
  }
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  home = tempHome();
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    API_SERVER_KEY: KEY,
  });
  client = new OpenAI({ apiKey: KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
}, 30_000);

afterAll(async () => {
  expect(await gw?.stop()).toBe(0);
});

describe('the API platform through the openai client', () => {
  it('lists the configured model and the hermes alias, and retrieves each', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => [m.id, m.object, m.owned_by])).toEqual([
      ['test-model', 'model', 'hermes'],
      ['hermes', 'model', 'hermes'],
    ]);
    expect(page.data[0]?.created).toBeGreaterThan(1_700_000_000);
    expect((await client.models.retrieve('hermes')).id).toBe('hermes');
    await expect(client.models.retrieve('gpt-nothing')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
    });
  });

  it('guards /v1/models like every /v1 route: the key, then the Host', async () => {
    const anon = new OpenAI({ apiKey: 'wrong', baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await expect(anon.models.list()).rejects.toMatchObject({ status: 401 });
    await expect(anon.responses.create({ model: 'hermes', input: 'hi' })).rejects.toMatchObject({ status: 401 });
    expect(openai.server.requests).toHaveLength(0);
    const evil = await rawRequest(gw.url, 'GET', '/v1/models', {
      host: 'evil.example.com',
      authorization: `Bearer ${KEY}`,
    });
    expect(evil?.status).toBe(421);
  });

  it('answers chat completions, streaming and not, with content as text parts', async () => {
    openai.server.script({ text: 'plain answer' }, { text: 'streamed answer' });
    const done = await client.chat.completions.create({
      model: 'hermes',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'part one, ' },
            { type: 'text', text: 'part two' },
          ],
        },
      ],
    });
    expect(done.choices[0]?.message.content).toBe('plain answer');
    expect(modelRequest().messages).toEqual(['user: part one, part two']);
    const stream = await client.chat.completions.create({
      model: 'hermes',
      stream: true,
      messages: [{ role: 'user', content: 'stream it' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('streamed answer');
  });

  it('refuses a body the schema does not accept with 400 and param naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ messages: [{ role: 'bot', content: 'x' }] }, 'messages[0].role'],
      [{ messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
      [{ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content'],
      [{ messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, 'temperature'],
      [{ messages: [{ role: 'user', content: 'x' }], stream: 'true' }, 'stream'],
      [{ messages: [] }, 'messages'],
      [{}, 'messages'],
    ];
    for (const [body, param] of cases) {
      const r = await post('/v1/chat/completions', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param });
      expect((r.json.error as { message: string }).message).toContain(`${param}:`);
    }
    // unknown keys pass: clients send many
    openai.server.script({ text: 'still fine' });
    const ok = await post('/v1/chat/completions', {
      messages: [{ role: 'user', content: 'x' }],
      frequency_penalty: 0,
      some_vendor_flag: { a: 1 },
    });
    expect(ok.status).toBe(200);
    await expect(client.responses.create({ model: 'hermes', input: [] })).rejects.toMatchObject({
      status: 400,
      param: 'input',
    });
  });

  it('answers the Responses API, streaming and not, chaining with previous_response_id', async () => {
    openai.server.script({ text: 'Ahoy, first answer' }, { text: 'second, streamed' }, { text: 'third' });
    const first = await client.responses.create({
      model: 'hermes',
      instructions: 'Talk like a pirate.',
      input: 'first question',
    });
    expect(first).toMatchObject({ object: 'response', status: 'completed', model: 'test-model', store: true });
    expect(first.id).toMatch(/^resp_/);
    expect(first.output_text).toBe('Ahoy, first answer');
    expect(modelRequest().system).toContain('Talk like a pirate.');
    expect(modelRequest().messages).toEqual(['user: first question']);

    const stream = await client.responses.create({
      model: 'hermes',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'second question' }] }],
      previous_response_id: first.id,
      stream: true,
    });
    const types: string[] = [];
    let deltas = '';
    let completedId = '';
    let sequence = -1;
    for await (const event of stream) {
      types.push(event.type);
      expect(event.sequence_number).toBe(sequence + 1);
      sequence = event.sequence_number;
      if (event.type === 'response.output_text.delta') deltas += event.delta;
      if (event.type === 'response.completed') {
        completedId = event.response.id;
        expect(event.response.output_text).toBe('second, streamed');
        expect(event.response.previous_response_id).toBe(first.id);
      }
    }
    expect(deltas).toBe('second, streamed');
    expect(types[0]).toBe('response.created');
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    // the second model request carried the first exchange
    expect(modelRequest().messages).toEqual([
      'user: first question',
      'assistant: Ahoy, first answer',
      'user: second question',
    ]);
    // instructions are not carried over (as OpenAI does)
    expect(modelRequest().system).not.toContain('pirate');

    const third = await client.responses.create({
      model: 'hermes',
      input: 'third question',
      previous_response_id: completedId,
    });
    expect(third.output_text).toBe('third');
    expect(modelRequest().messages).toHaveLength(5);
  });

  it('forks a conversation chained twice from one response, and keeps nothing for store: false', async () => {
    openai.server.script({ text: 'root' }, { text: 'branch a' }, { text: 'branch b' }, { text: 'unstored' });
    const root = await client.responses.create({ model: 'hermes', input: 'root question' });
    await client.responses.create({ model: 'hermes', input: 'a?', previous_response_id: root.id });
    const b = await client.responses.create({ model: 'hermes', input: 'b?', previous_response_id: root.id });
    expect(b.output_text).toBe('branch b');
    expect(modelRequest().messages).toEqual(['user: root question', 'assistant: root', 'user: b?']);

    const before = sessionCount();
    const unstored = await client.responses.create({
      model: 'hermes',
      input: 'not kept',
      previous_response_id: b.id,
      store: false,
    });
    expect(unstored).toMatchObject({ store: false, output_text: 'unstored' });
    expect(modelRequest().messages).toHaveLength(5);
    expect(sessionCount()).toBe(before);
    await expect(
      client.responses.create({ model: 'hermes', input: 'x', previous_response_id: unstored.id }),
    ).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found', param: 'previous_response_id' });
  });

  it('answers a failed turn with 502, or ends the stream with response.failed (not chainable)', async () => {
    openai.server.script({ status: 400 }, { status: 400 });
    await expect(client.responses.create({ model: 'hermes', input: 'fail plainly' })).rejects.toMatchObject({
      status: 502,
      type: 'server_error',
    });
    const stream = await client.responses.create({ model: 'hermes', input: 'fail streamed', stream: true });
    const types: string[] = [];
    let failedId = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.failed') {
        failedId = event.response.id;
        expect(event.response.status).toBe('failed');
        expect(event.response.error?.message).toMatch(/\S/);
      }
    }
    expect(types.at(-1)).toBe('response.failed');
    expect(types).not.toContain('response.completed');
    await expect(
      client.responses.create({ model: 'hermes', input: 'x', previous_response_id: failedId }),
    ).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found' });
  });

  it('forks a second turn chained onto a response while the first one still runs (no interleaving)', async () => {
    openai.server.script({ text: 'root' });
    const root = await client.responses.create({ model: 'hermes', input: 'root question' });
    openai.server.script({ text: 'slow a', delayMs: 300 }, { text: 'quick b' }, { text: 'c' });
    const a = client.responses.create({ model: 'hermes', input: 'a?', previous_response_id: root.id });
    // b starts once a's model request is under way (a has not stored anything yet)
    await waitFor(() => openai.server.requests.length >= 2, { what: "a's model request" });
    expect(openai.server.requests).toHaveLength(2);
    const b = await client.responses.create({ model: 'hermes', input: 'b?', previous_response_id: root.id });
    expect(b.output_text).toBe('quick b');
    const first = await a;
    expect(first.output_text).toBe('slow a');
    // b started while a ran, so it went to a fork: a's session holds only a's exchange
    await client.responses.create({ model: 'hermes', input: 'c?', previous_response_id: first.id });
    expect(modelRequest().messages).toEqual([
      'user: root question',
      'assistant: root',
      'user: a?',
      'assistant: slow a',
      'user: c?',
    ]);
  });

  it("runs docs/api-platform.md's Responses API sample (chaining) as written, against this gateway", async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const doc = readFileSync(join(root, 'docs', 'api-platform.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The Responses API'));
    const sample = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(sample).toContain('previous_response_id: first.id');
    openai.server.script({ text: 'Hello Ada' }, { text: 'Your name is Ada.' });
    const code = (sample ?? '').replace('http://127.0.0.1:8642/v1', `${gw.url}/v1`);
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', API_SERVER_KEY: KEY },
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('Your name is Ada.');
    expect(modelRequest().messages).toEqual([
      'user: My name is Ada.',
      'assistant: Hello Ada',
      'user: What is my name?',
    ]);
  });
});
