// The model client's transport (the direct JSON POST over the undici pool, and the SDK's streaming
// requests over fast-fetch.ts) against a bare node:http server on 127.0.0.1: timeouts, refused
// connections, aborts mid-stream, and the request body with its cached tool JSON (completion-json.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HookBus } from '@hermes/plugins';
import { ERROR_CODES, type HermesError, type ToolDefinition } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { completionChunks, completionJson } from '../src/completion-json.js';
import { InterruptedError, ModelClient } from '../src/index.js';
import { COPIED_BELOW, requestBody } from '../src/post-completion.js';
import { echoTool, turn } from './helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let handler: Handler = (_req, res) => res.writeHead(500).end();
const bodies: string[] = [];
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const modelClient = (
  baseUrl: string,
  timeoutMs = 5_000,
  more: { idleTimeoutMs?: number; retryBudgetMs?: number; maxRetries?: number } = {},
) =>
  new ModelClient({
    baseUrl,
    apiKey: 'sk-test',
    timeoutMs,
    maxRetries: 0,
    hooks: new HookBus({ timeoutMs: 1_000 }),
    ...more,
  });

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

const completion = (content: string) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });

const request = { body: { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] }, sessionId: 's' };

describe('the model transport', () => {
  it('a silent endpoint times out after timeoutMs (the first byte), as a model_timeout error (JSON and streaming)', async () => {
    handler = () => {}; // never answers
    for (const streaming of [false, true]) {
      const error = await modelClient(url, 200)
        .complete(streaming ? { ...request, onDelta: () => {} } : request)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: ERROR_CODES.MODEL_TIMEOUT, detail: 'no answer within 0.2 s' });
      expect(String((error as Error).message)).toMatch(/timed out/);
    }
  });

  it('an answer that starts and then stops times out after the idle timeout, saying so (JSON and streaming)', async () => {
    handler = (_req, res, body) => {
      const streamed = (JSON.parse(body) as { stream?: boolean }).stream === true;
      res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      res.write(streamed ? chunk('Hel') : '{"id":"c1",'); // then nothing more
    };
    for (const streaming of [false, true]) {
      const deltas: string[] = [];
      const error = await modelClient(url, 5_000, { idleTimeoutMs: 300 })
        .complete(streaming ? { ...request, onDelta: (t) => deltas.push(t) } : request)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: ERROR_CODES.MODEL_TIMEOUT, detail: 'the answer stopped for 0.3 s' });
      if (streaming) expect(deltas).toEqual(['Hel']);
    }
  });

  it('the retry budget bounds all attempts: a hung endpoint fails within it, and says how many attempts it made', async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const error = await modelClient(url, 600, { retryBudgetMs: 4_000, maxRetries: 5 })
      .complete(request)
      .catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(error).toMatchObject({ code: ERROR_CODES.MODEL_TIMEOUT });
    // 0.6 s, a wait of ~1 s, 0.6 s again; a second wait of 1.5-2.5 s would end within a second of the budget: not made
    expect((error as HermesError).detail).toMatch(/^no answer within 0\.6 s, 2 attempts in [23] s$/);
    expect(took).toBeLessThan(4_000 + 500);
  });

  it('an HTTP error keeps the provider message as the detail, with the key blanked', async () => {
    handler = (_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: "The model 'gpt-9' does not exist (key sk-test)", code: 'model_not_found' },
        }),
      );
    const error = await modelClient(url)
      .complete(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ERROR_CODES.MODEL_HTTP,
      detail: "The model 'gpt-9' does not exist (key [REDACTED])",
    });
  });

  it('a refused connection names the socket error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    for (const streaming of [false, true]) {
      const error = await modelClient(`http://127.0.0.1:${port}/v1`)
        .complete(streaming ? { ...request, onDelta: () => {} } : request)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: ERROR_CODES.MODEL_UNREACHABLE, detail: 'connection refused' });
      expect(String((error as Error).message)).toContain('ECONNREFUSED');
    }
  });

  it('an abort in the middle of a streamed answer interrupts the step and closes the connection', async () => {
    let closed: () => void = () => {};
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm' };
      res.write(`data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { content: 'par' } }] })}\n\n`);
      req.socket.once('close', closed); // and never ends
    };
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = modelClient(url).complete({
      ...request,
      signal: controller.signal,
      onDelta: (text) => {
        deltas.push(text);
        controller.abort();
      },
    });
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    expect(deltas).toEqual(['par']);
    await connectionClosed;
  });

  it('an abort while a JSON answer is awaited interrupts the step and closes the connection', async () => {
    let closed: () => void = () => {};
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const controller = new AbortController();
    handler = (req) => {
      req.socket.once('close', closed); // never answers
      controller.abort();
    };
    await expect(modelClient(url).complete({ ...request, signal: controller.signal })).rejects.toBeInstanceOf(
      InterruptedError,
    );
    await connectionClosed;
  });

  it("a JSON answer: its body whatever its chunks, an error's headers (retry-after) and a 200 without JSON", async () => {
    const text = completion('split across chunks');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write(text.slice(0, 20));
      setImmediate(() => res.end(text.slice(20)));
    };
    expect((await modelClient(url).complete(request)).content).toBe('split across chunks');
    let calls = 0;
    handler = (_req, res) => {
      calls += 1;
      if (calls === 1)
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
          .end(JSON.stringify({ error: { message: 'slow down' } }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(completion('after the wait'));
    };
    const waits: number[] = [];
    const retrying = new ModelClient({
      baseUrl: url,
      apiKey: 'sk-test',
      timeoutMs: 5_000,
      maxRetries: 1,
      hooks: new HookBus({ timeoutMs: 1_000 }),
      sleep: async (ms) => {
        waits.push(ms);
        return true;
      },
    });
    expect((await retrying.complete(request)).content).toBe('after the wait');
    expect(waits).toEqual([0]); // retry-after: 0 honoured
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('not json');
    const error = await modelClient(url)
      .complete(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ERROR_CODES.MODEL_RESPONSE });
  });

  it('sends each tool schema as JSON the server parses back to the tool, the same on every request', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion('ok'));
    bodies.length = 0;
    const client = modelClient(url);
    const hooks = new HookBus({ timeoutMs: 1_000 });
    const tools: ToolDefinition[] = [
      echoTool,
      { ...echoTool, name: 'echo2', schema: { ...echoTool.schema, name: 'echo2' } },
    ];
    for (let i = 0; i < 2; i++) {
      const result = await turn({ userMessage: `hello ${i}`, tools, hooks, client });
      expect(result.status).toBe('completed');
    }
    expect(bodies).toHaveLength(2);
    const sent = bodies.map((b) => JSON.parse(b) as { tools: unknown; messages: { content: string }[] });
    const expected = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.schema.description, parameters: t.schema.parameters },
    }));
    expect(sent[0]?.tools).toEqual(expected);
    expect(sent[1]?.tools).toEqual(expected);
    expect(sent[1]?.messages.at(-1)?.content).toBe('hello 1');
  });
});

describe('completionJson', () => {
  it('is JSON.stringify of the body, tools last; without tools exactly JSON.stringify', () => {
    const tool = { type: 'function' as const, function: { name: 'x', parameters: { type: 'object' } } };
    const body = { model: 'm', messages: [{ role: 'user' as const, content: 'a"b' }], tools: [tool], max_tokens: 5 };
    expect(JSON.parse(completionJson(body))).toEqual(body);
    expect(completionJson(body)).toBe(completionJson(body)); // cached the second time, same text
    // serialized once: a change to the same schema object afterwards is not seen (tools are fixed once registered)
    tool.function.name = 'changed';
    expect(JSON.parse(completionJson(body)).tools[0].function.name).toBe('x');
    const noTools = { model: 'm', messages: [], tools: [] };
    expect(completionJson(noTools)).toBe(JSON.stringify(noTools));
  });

  it('serializes a frozen message once and an unfrozen one every time', () => {
    const kept = Object.freeze({ role: 'user' as const, content: 'kept' });
    const open = { role: 'assistant' as const, content: 'open' };
    const body = { model: 'm', messages: [kept, open], max_tokens: 5 };
    expect(completionJson(body)).toBe(
      '{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"kept"},{"role":"assistant","content":"open"}]}',
    );
    open.content = 'changed'; // a message of the running turn may still change: it is read again
    expect(JSON.parse(completionJson(body)).messages[1].content).toBe('changed');
    // the frozen one's text is reused: the body and the open message are serialized, the frozen one not again
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      completionJson(body);
      expect(stringify.mock.calls.map(([value]) => value)).toEqual([{ model: 'm', max_tokens: 5 }, open]);
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('requestBody', () => {
  it("joins a body's small chunks into one buffer and sends a long one (a kept history) as it is", () => {
    const history = Array.from({ length: 400 }, (_, i) =>
      Object.freeze({ role: 'user' as const, content: `message ${i} ${'x'.repeat(60)}` }),
    );
    const body = { model: 'm', messages: [{ role: 'system' as const, content: 'sys' }, ...history] };
    const fresh = { model: 'm', messages: [{ role: 'system' as const, content: 'sys' }, history[0] as never] };
    const one = requestBody(completionChunks(fresh));
    expect(Buffer.isBuffer(one)).toBe(true);
    expect(JSON.parse(String(one))).toEqual(fresh);
    const chunks = completionChunks(body);
    const long = chunks.find((c) => c.length >= COPIED_BELOW);
    const sent = requestBody(chunks) as Buffer[];
    expect(sent).toHaveLength(3); // what comes before the history, the history itself, what follows it
    expect(sent[1]).toBe(long); // not copied
    expect(JSON.parse(Buffer.concat(sent).toString('utf8'))).toEqual(body);
    expect(requestBody('{"a":1}')).toBe('{"a":1}');
  });

  it('a long history reaches the server whole', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion('ok'));
    bodies.length = 0;
    const history = Array.from({ length: 400 }, (_, i) =>
      Object.freeze({ role: 'user' as const, content: `message ${i} ${'y'.repeat(60)}` }),
    );
    const messages = [...history, { role: 'user' as const, content: 'last' }];
    expect((await modelClient(url).complete({ ...request, body: { model: 'm', messages } })).content).toBe('ok');
    expect(JSON.parse(bodies[0] ?? '')).toMatchObject({ model: 'm', messages });
  });
});
