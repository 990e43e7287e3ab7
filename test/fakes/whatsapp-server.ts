// A fake of the WhatsApp Business Cloud API (Graph API) on 127.0.0.1, as the Cloud API answers:
// POST /{version}/{phone-number-id}/messages (text, interactive, reaction, media by id, and the
// read mark with typing indicator), POST /{version}/{phone-number-id}/media (multipart upload),
// GET /{version}/{media-id} (a short-lived url on this server) and GET of that url (bearer auth),
// GET /{version}/{phone-number-id} (what `hermes doctor` asks). Every request is recorded; errors
// come in Meta's shape ({ error: { message, type, code, error_data: { details } } }) with the HTTP
// status Meta uses for the code. The webhook side (signed payloads POSTed to the gateway) is
// test/fakes/whatsapp-webhooks.ts, re-exported here.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { multipartBoundary, parseMultipartBody } from './multipart.js';
import { postWebhook, type WebhookBuilders, webhookBuilders } from './whatsapp-webhooks.js';

export { postWebhook, signWebhook, type WaInboundMessage, type WebhookSender } from './whatsapp-webhooks.js';

/** Every request the fake received. */
export interface RecordedCall {
  method: string;
  /** the path without the version (`/1234/messages`) */
  path: string;
  authorization: string | undefined;
  /** the JSON body, or the multipart fields */
  body: Record<string, unknown>;
  /** the HTTP status the fake answered */
  status: number;
}

/** A message the bot sent (POST /messages of a `type`), with the wamid the fake gave it. */
export interface SentMessage {
  id: string;
  to: string;
  type: string;
  /** text.body, or the interactive body's text */
  text: string;
  /** the reply buttons of an interactive message */
  buttons: { id: string; title: string }[];
  /** the media id of an image, audio, video or document message */
  mediaId?: string;
  filename?: string;
  /** the message it quotes (`context.message_id`) */
  replyTo?: string;
  body: Record<string, unknown>;
}

/** A file uploaded with POST /media. */
export interface UploadedMedia {
  id: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/** Meta's HTTP status for an error code (its error table); 400 for anything else. */
const STATUS_OF_CODE: Readonly<Record<number, number>> = {
  0: 401,
  190: 401,
  10: 403,
  368: 403,
  4: 429,
  80007: 429,
  130429: 429,
  131056: 429,
  131000: 500,
  131016: 503,
};

const TITLES: Readonly<Record<number, string>> = {
  190: 'Access token has expired',
  130429: 'Rate limit hit',
  131047: 'Re-engagement message',
  131053: 'Media upload error',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
};

export interface FakeWhatsApp {
  /** the Graph API base as the adapter takes it: http://127.0.0.1:PORT/v21.0 */
  apiUrl: string;
  phoneNumberId: string;
  displayNumber: string;
  token: string;
  appSecret: string;
  /** payload builders for this business number */
  webhooks: WebhookBuilders;
  calls: RecordedCall[];
  /** messages sent, in order (reactions and read marks excluded) */
  sent: SentMessage[];
  /** reactions set: the message reacted to and the emoji ('' removes) */
  reactions: { messageId: string; emoji: string }[];
  /** read marks, with whether the typing indicator was asked */
  reads: { messageId: string; typing: boolean }[];
  uploads: UploadedMedia[];
  /** serves `data` as a media id (GET /{media-id}, then its url); returns the id */
  addMedia(data: Buffer, mimeType: string): string;
  /** the next `count` calls of `kind` answer the Meta error `code` */
  failNext(kind: 'messages' | 'media' | 'media-info', code: number, count?: number): void;
  /** signs and POSTs `payload` to `url` as Meta does */
  deliver(url: string, payload: unknown): Promise<Response>;
  /** destroys every open connection to the Graph API (the adapter's kept-alive sockets) */
  dropConnections(): void;
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const graphError = (code: number, details: string) => ({
  error: {
    message: `(#${code}) ${TITLES[code] ?? 'Error'}`,
    type: 'OAuthException',
    code,
    error_data: { messaging_product: 'whatsapp', details },
    fbtrace_id: 'AFakeTraceId',
  },
});

/** Starts the fake for one business number. */
export async function startFakeWhatsApp(
  options: { token?: string; appSecret?: string; phoneNumberId?: string; displayNumber?: string } = {},
): Promise<FakeWhatsApp> {
  const token = options.token ?? 'EAAGfaketokenfaketokenfaketokenZZ';
  const appSecret = options.appSecret ?? 'fake-app-secret-3f1c9a';
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  const displayNumber = options.displayNumber ?? '15550783881';
  const calls: RecordedCall[] = [];
  const sent: SentMessage[] = [];
  const reactions: FakeWhatsApp['reactions'] = [];
  const reads: FakeWhatsApp['reads'] = [];
  const uploads: UploadedMedia[] = [];
  const media = new Map<string, { data: Buffer; mimeType: string }>();
  const failures: Record<string, number[]> = { messages: [], media: [], 'media-info': [] };
  const sockets = new Set<Socket>();
  let origin = '';
  let nextMedia = 1;

  const addMedia = (data: Buffer, mimeType: string): string => {
    const id = String(900_000_000_000 + nextMedia++);
    media.set(id, { data, mimeType });
    return id;
  };

  const message = (body: Record<string, unknown>): { status: number; answer: unknown } => {
    if (body.messaging_product !== 'whatsapp') {
      return { status: 400, answer: graphError(100, 'messaging_product must be "whatsapp"') };
    }
    if (body.status === 'read') {
      const typing = typeof body.typing_indicator === 'object' && body.typing_indicator !== null;
      reads.push({ messageId: String(body.message_id), typing });
      return { status: 200, answer: { success: true } };
    }
    const type = String(body.type ?? 'text');
    const content = (body[type] ?? {}) as Record<string, unknown>;
    const to = String(body.to ?? '');
    if (!/^\d+$/.test(to)) return { status: 400, answer: graphError(100, 'Invalid parameter: to') };
    if (type === 'reaction') {
      reactions.push({ messageId: String(content.message_id), emoji: String(content.emoji ?? '') });
      return {
        status: 200,
        answer: { messaging_product: 'whatsapp', messages: [{ id: `wamid.reaction${reactions.length}` }] },
      };
    }
    const interactive = type === 'interactive' ? content : undefined;
    const action = (interactive?.action ?? {}) as { buttons?: { reply: { id: string; title: string } }[] };
    const buttons = (action.buttons ?? []).map((b) => b.reply);
    const bodyText =
      type === 'text' ? String(content.body ?? '') : String((interactive?.body as { text?: unknown })?.text ?? '');
    if (type === 'text' && bodyText.length > 4_096) {
      return { status: 400, answer: graphError(100, "Param text['body'] must be at most 4096 characters long.") };
    }
    if (buttons.length > 3 || buttons.some((b) => b.title.length > 20)) {
      return { status: 400, answer: graphError(131009, 'Buttons: at most 3, titles at most 20 characters') };
    }
    if (type === 'interactive' && bodyText.length > 1_024) {
      return { status: 400, answer: graphError(131009, 'interactive body text is at most 1024 characters') };
    }
    const mediaId = typeof content.id === 'string' ? content.id : undefined;
    if (['image', 'audio', 'video', 'document'].includes(type) && (mediaId === undefined || !media.has(mediaId))) {
      return { status: 400, answer: graphError(131053, `no uploaded media ${String(mediaId)}`) };
    }
    const id = `wamid.HBgL${to}${randomBytes(6).toString('hex').toUpperCase()}==`;
    const context = body.context as { message_id?: string } | undefined;
    sent.push({
      id,
      to,
      type,
      text: bodyText,
      buttons,
      ...(mediaId === undefined ? {} : { mediaId }),
      ...(typeof content.filename === 'string' ? { filename: content.filename } : {}),
      ...(context?.message_id === undefined ? {} : { replyTo: context.message_id }),
      body,
    });
    return {
      status: 200,
      answer: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id }] },
    };
  };

  const upload = (
    raw: Buffer,
    contentType: string,
  ): { status: number; answer: unknown; fields: Record<string, unknown> } => {
    const boundary = multipartBoundary(contentType);
    if (boundary === null) return { status: 400, answer: graphError(100, 'expected multipart/form-data'), fields: {} };
    const form = parseMultipartBody(raw, boundary);
    const file = form.files.find((f) => f.field === 'file');
    if (form.fields.messaging_product !== 'whatsapp' || file === undefined || form.fields.type === undefined) {
      return {
        status: 400,
        answer: graphError(100, 'file, type and messaging_product are required'),
        fields: form.fields,
      };
    }
    const id = addMedia(file.data, form.fields.type);
    uploads.push({ id, fileName: file.fileName, mimeType: form.fields.type, size: file.size, sha256: file.sha256 });
    return { status: 200, answer: { id }, fields: { ...form.fields, file: file.fileName } };
  };

  const server = createServer(async (req, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const authorization = req.headers.authorization;
    const path = url.pathname.replace(/^\/v\d+\.\d+/, '');
    const answer = (status: number, body: unknown, fields: Record<string, unknown> = {}) => {
      calls.push({ method: req.method ?? '', path, authorization, body: fields, status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (authorization !== `Bearer ${token}`) return answer(401, graphError(190, 'Error validating access token'));
    if (req.method === 'GET' && path.startsWith('/download/')) {
      const file = media.get(path.slice('/download/'.length));
      if (file === undefined) return answer(404, graphError(100, 'no such media'));
      calls.push({ method: 'GET', path, authorization, body: {}, status: 200 });
      return res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.data.length }).end(file.data);
    }
    let body: Record<string, unknown> = {};
    if ((req.headers['content-type'] ?? '').includes('application/json')) {
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        return answer(400, graphError(100, 'body is not JSON'));
      }
    }
    const scripted = (kind: string) => failures[kind]?.shift();
    if (req.method === 'POST' && path === `/${phoneNumberId}/messages`) {
      const code = body.status === 'read' ? undefined : scripted('messages');
      if (code !== undefined) return answer(STATUS_OF_CODE[code] ?? 400, graphError(code, 'scripted failure'), body);
      const result = message(body);
      return answer(result.status, result.answer, body);
    }
    if (req.method === 'POST' && path === `/${phoneNumberId}/media`) {
      const code = scripted('media');
      if (code !== undefined) return answer(STATUS_OF_CODE[code] ?? 400, graphError(code, 'scripted failure'));
      const result = upload(raw, req.headers['content-type'] ?? '');
      return answer(result.status, result.answer, result.fields);
    }
    if (req.method === 'GET' && path === `/${phoneNumberId}`) {
      return answer(200, { verified_name: 'Hermes Test', display_phone_number: displayNumber, id: phoneNumberId });
    }
    const mediaInfo = /^\/(\d+)$/.exec(path);
    if (req.method === 'GET' && mediaInfo?.[1] !== undefined) {
      const code = scripted('media-info');
      if (code !== undefined) return answer(STATUS_OF_CODE[code] ?? 400, graphError(code, 'scripted failure'));
      const file = media.get(mediaInfo[1]);
      if (file === undefined) return answer(400, graphError(100, `Unsupported get request: ${mediaInfo[1]}`));
      return answer(200, {
        messaging_product: 'whatsapp',
        url: `${origin}/download/${mediaInfo[1]}`,
        mime_type: file.mimeType,
        sha256: createHash('sha256').update(file.data).digest('hex'),
        file_size: file.data.length,
        id: mediaInfo[1],
      });
    }
    answer(400, graphError(100, `Unknown path components: ${req.method} ${path}`));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${origin}/v21.0`,
    phoneNumberId,
    displayNumber,
    token,
    appSecret,
    webhooks: webhookBuilders({ phoneNumberId, displayNumber }),
    calls,
    sent,
    reactions,
    reads,
    uploads,
    addMedia,
    failNext(kind, code, count = 1) {
      for (let i = 0; i < count; i += 1) failures[kind]?.push(code);
    },
    deliver: (url, payload) => postWebhook(url, payload, { appSecret }),
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    reset() {
      for (const list of [calls, sent, reactions, reads, uploads]) list.length = 0;
      for (const key of Object.keys(failures)) failures[key] = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
