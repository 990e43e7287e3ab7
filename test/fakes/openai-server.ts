// A protocol-faithful fake OpenAI-compatible server on loopback, driven by scripted replies.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completionBody, completionChunks, type ResponseMeta, toAnswer } from './openai-completion.js';
import { answerImages, IMAGES_PATH, type ImageReply } from './openai-images.js';
import { errorBodyFor, type Reply } from './openai-reply.js';
import { answerSpeech, SPEECH_PATH, type SpeechReply } from './openai-speech.js';

export { FAKE_PNG, type ImageReply } from './openai-images.js';
export {
  type ErrorReply,
  type FakeToolCall,
  type HangReply,
  type Reply,
  type ReplyBase,
  scriptToolTurn,
  type TextReply,
  type ToolCallsReply,
} from './openai-reply.js';
export { FAKE_MP3, FAKE_OPUS, type SpeechReply } from './openai-speech.js';

export interface FakeOpenAIOptions {
  /** When set, every route answers 401 unless `Authorization: Bearer <requireKey>`. */
  requireKey?: string;
  /** Model ids listed by `GET /v1/models`. Default `['fake-model']`. */
  models?: string[];
  /** Milliseconds since the epoch, for `at` and `created`. Default `Date.now`. */
  now?: () => number;
}

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string;
  /** URL path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body when it is a JSON object, else undefined. */
  body: Record<string, unknown> | undefined;
  rawBody: string;
  at: number;
  /** true once the connection closed before the fake answered a hanging or delayed reply (the client aborted, or the fake closed) */
  closedUnanswered?: boolean;
}

/** What `/audio/transcriptions` received: the multipart fields and the file's bytes. */
export interface RecordedTranscription {
  model: string | null;
  fileName: string | null;
  mimeType: string | null;
  data: Buffer;
}

/** A scripted transcription answer: a transcript, an HTTP error, or no answer at all. */
export type TranscriptionReply = { text: string } | { status: number; message?: string } | { hang: true };

/** An image the model received as an `image_url` part with a data: URL. */
export interface ReceivedImage {
  mimeType: string;
  data: Buffer;
}

/** The images of the user messages of a chat request (data: URL parts, decoded). */
export function imagePartsOf(request: RecordedRequest | undefined): ReceivedImage[] {
  const messages = (request?.body?.messages ?? []) as { role?: string; content?: unknown }[];
  const images: ReceivedImage[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type?: string; image_url?: { url?: string } }[]) {
      const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url?.url ?? '');
      if (part.type === 'image_url' && match)
        images.push({ mimeType: match[1] ?? '', data: Buffer.from(match[2] ?? '', 'base64') });
    }
  }
  return images;
}

/** Computes a reply for a chat request when the scripted queue is empty. */
export type Responder = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface FakeOpenAI {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** Every request received, oldest first (any route, including refused ones). */
  readonly requests: readonly RecordedRequest[];
  /** Every `/audio/transcriptions` request that carried a file, oldest first. */
  readonly transcriptions: readonly RecordedTranscription[];
  /** Queues answers for the next transcription requests; when empty: `{ text: 'fake transcript' }`. */
  scriptTranscription(...replies: TranscriptionReply[]): void;
  /** Queues replies for the next chat-completion requests, in order. */
  script(...replies: Reply[]): void;
  /** Queues answers for the next `/images/generations` requests (default: a 1x1 PNG as b64_json). */
  scriptImage(...replies: ImageReply[]): void;
  /** Queues answers for the next `/audio/speech` requests (default: Ogg Opus or MP3 bytes by `response_format`). */
  scriptSpeech(...replies: SpeechReply[]): void;
  /** Every `/audio/speech` request, oldest first (its JSON body). */
  readonly speeches: readonly RecordedRequest[];
  /** Sets (or clears with undefined) the responder used when the queue is empty. */
  respond(fn: Responder | undefined): void;
  /** How many scripted replies have not been used yet. */
  pending(): number;
  /** Clears the queue, the responder, the recorded requests and the id counters. */
  reset(): void;
  /** Stops listening and drops every open connection (hanging requests included); idempotent. */
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';
const TRANSCRIPTIONS_PATH = '/v1/audio/transcriptions';
export const DEFAULT_TRANSCRIPT = 'fake transcript';
const NO_SCRIPT: Reply = { status: 500, body: errorBodyFor(500, 'fake: no scripted reply') };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonObject(raw: string): Record<string, unknown> | undefined {
  if (raw === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined; // recorded as rawBody; the chat route answers 400
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The multipart form of a request, parsed by the platform's own Request (as a real server's parser would). */
async function multipart(headers: IncomingHttpHeaders, body: Buffer): Promise<FormData | null> {
  const type = headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return null;
  try {
    return await new Request('http://fake/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
  } catch {
    return null;
  }
}

/** Resolves true after `ms`, or false as soon as the response's connection closes. */
function waitWhileOpen(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

/** Resolves when the response's connection closes (client abort or fake shutdown). */
function untilClosed(res: ServerResponse): Promise<void> {
  return res.destroyed ? Promise.resolve() : new Promise((resolve) => res.once('close', () => resolve()));
}

function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function modelObject(id: string): object {
  return { id, object: 'model', created: 1_700_000_000, owned_by: 'hermes-fake' };
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const now = options.now ?? Date.now;
  const models = options.models ?? ['fake-model'];
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const transcriptions: RecordedTranscription[] = [];
  const transcriptionQueue: TranscriptionReply[] = [];
  const imageQueue: ImageReply[] = [];
  const speechQueue: SpeechReply[] = [];
  const speeches: RecordedRequest[] = [];
  let responder: Responder | undefined;
  let callCounter = 0;
  let responseCounter = 0;

  const nextCallId = (): string => `call_${++callCounter}`;

  async function nextReply(request: RecordedRequest): Promise<Reply> {
    const scripted = queue.shift();
    if (scripted !== undefined) return scripted;
    if (responder === undefined) return NO_SCRIPT;
    try {
      return await responder(request);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: 500, body: errorBodyFor(500, `fake: responder threw: ${message}`) };
    }
  }

  async function answerChat(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const body = request.body;
    if (body === undefined) {
      sendJson(res, 400, errorBodyFor(400, 'fake: request body is not a JSON object'));
      return;
    }
    const reply = await nextReply(request);
    if (reply.hang === true) {
      await untilClosed(res);
      request.closedUnanswered = true;
      return;
    }
    if (reply.delayMs !== undefined && !(await waitWhileOpen(res, reply.delayMs))) {
      request.closedUnanswered = true;
      return;
    }

    responseCounter += 1;
    const headers = { 'x-request-id': `req_fake_${responseCounter}`, ...reply.headers };
    if ('status' in reply) {
      sendJson(res, reply.status, reply.body ?? errorBodyFor(reply.status), headers);
      return;
    }
    const meta: ResponseMeta = {
      id: `chatcmpl-fake-${responseCounter}`,
      created: Math.floor(now() / 1000),
      model: typeof body.model === 'string' ? body.model : 'fake-model',
    };
    const answer = toAnswer(reply, JSON.stringify(body.messages ?? []), nextCallId);
    if (body.stream !== true) {
      sendJson(res, 200, completionBody(answer, meta), headers);
      return;
    }
    const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    for (const chunk of completionChunks(answer, meta, includeUsage)) {
      if (reply.chunkDelayMs !== undefined && !(await waitWhileOpen(res, reply.chunkDelayMs))) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  async function answerTranscription(request: RecordedRequest, raw: Buffer, res: ServerResponse): Promise<void> {
    const form = await multipart(request.headers, raw);
    const file = form?.get('file');
    if (form === null || !(file instanceof Blob)) {
      sendJson(res, 400, errorBodyFor(400, "fake: expected multipart/form-data with a 'file' part"));
      return;
    }
    const model = form.get('model');
    transcriptions.push({
      model: typeof model === 'string' ? model : null,
      fileName: file instanceof File ? file.name : null,
      mimeType: file.type === '' ? null : file.type,
      data: Buffer.from(await file.arrayBuffer()),
    });
    if (typeof model !== 'string' || model === '') {
      sendJson(res, 400, errorBodyFor(400, 'you must provide a model parameter'));
      return;
    }
    const reply = transcriptionQueue.shift() ?? { text: DEFAULT_TRANSCRIPT };
    if ('hang' in reply) return untilClosed(res);
    if ('status' in reply) {
      sendJson(res, reply.status, errorBodyFor(reply.status, reply.message));
      return;
    }
    sendJson(res, 200, { text: reply.text });
  }

  function answerModels(path: string, res: ServerResponse): void {
    if (path === MODELS_PATH) {
      sendJson(res, 200, { object: 'list', data: models.map(modelObject) });
      return;
    }
    const id = decodeURIComponent(path.slice(MODELS_PATH.length + 1));
    if (models.includes(id)) sendJson(res, 200, modelObject(id));
    else {
      sendJson(res, 404, {
        error: {
          message: `The model '${id}' does not exist`,
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const rawBody = raw.toString('utf8');
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const request: RecordedRequest = {
      method,
      path,
      headers: req.headers,
      body: parseJsonObject(rawBody),
      rawBody,
      at: now(),
    };
    requests.push(request);

    if (options.requireKey !== undefined && req.headers.authorization !== `Bearer ${options.requireKey}`) {
      sendJson(res, 401, errorBodyFor(401));
      return;
    }
    if (method === 'POST' && path === CHAT_PATH) return answerChat(request, res);
    if (method === 'POST' && path === TRANSCRIPTIONS_PATH) return answerTranscription(request, raw, res);
    if (method === 'POST' && path === IMAGES_PATH) {
      const answer = answerImages(request.body, imageQueue.shift(), now);
      sendJson(res, answer.status, answer.body);
      return;
    }
    if (method === 'POST' && path === SPEECH_PATH) {
      speeches.push(request);
      const answer = answerSpeech(request.body, speechQueue.shift());
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length });
      res.end(answer.body);
      return;
    }
    if (method === 'GET' && (path === MODELS_PATH || path.startsWith(`${MODELS_PATH}/`))) {
      answerModels(path, res);
      return;
    }
    sendJson(res, 404, errorBodyFor(404, `Invalid URL (${method} ${path})`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the fake itself: make it loud in the test that hit it.
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, 500, errorBodyFor(500, `fake: internal error: ${message}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    transcriptions,
    scriptTranscription: (...replies) => {
      transcriptionQueue.push(...replies);
    },
    script: (...replies) => {
      queue.push(...replies);
    },
    scriptImage: (...replies) => {
      imageQueue.push(...replies);
    },
    speeches,
    scriptSpeech: (...replies) => {
      speechQueue.push(...replies);
    },
    respond: (fn) => {
      responder = fn;
    },
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      imageQueue.length = 0;
      speechQueue.length = 0;
      speeches.length = 0;
      requests.length = 0;
      transcriptions.length = 0;
      transcriptionQueue.length = 0;
      responder = undefined;
      callCounter = 0;
      responseCounter = 0;
    },
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
