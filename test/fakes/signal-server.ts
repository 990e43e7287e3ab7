// A fake of signal-cli's JSON-RPC daemon in HTTP mode (`signal-cli -a +NUMBER daemon --http`) on
// 127.0.0.1, as signal-cli answers (man signal-cli-jsonrpc.5, HttpServerHandler): POST /api/v1/rpc
// takes one JSON-RPC 2.0 request (415 without a JSON content type) and answers `result` or
// `error { code, message, data }` with signal-cli's codes (-1 user error, -5 rate limit with the
// send results in `data.response`); GET /api/v1/events is the Server-Sent Events stream (`id:`,
// `event:receive`, `data:{"envelope":…,"account":…}`) keeping the last 1000 events and replaying
// those after a `Last-Event-ID`; GET /api/v1/check answers 200. Every RPC call is recorded; the
// stream can be dropped (its sockets destroyed) and refused (503) to test reconnection.
// A send's text styles (`textStyle`, or `textStyles`: one `start:length:STYLE` or a list, as
// signal-cli's JSON-RPC reads its `--text-style`) are parsed as SendCommand parses them, a bad one
// refused with its user error (-1); the fake also refuses a range that is empty or runs past the
// message (counted in UTF-16 code units), which signal-cli passes on to Signal unchecked: a wrong
// offset fails the test instead of showing as a misplaced style.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RpcCall {
  method: string;
  params: Record<string, unknown>;
}

/** One text style of a sent message (signal-cli's TextStyle). */
export interface SignalTextStyle {
  start: number;
  length: number;
  style: string;
}

/** A message the bot sent with `send`. */
export interface SignalSent {
  /** the recipient number/uuid, or `group:<groupId>` */
  chatId: string;
  message: string;
  /** its text styles (none: []) */
  textStyles: SignalTextStyle[];
  /** the data URIs' decoded files */
  attachments: { contentType: string; filename: string | undefined; data: Buffer }[];
  quoteTimestamp?: number;
  quoteAuthor?: string;
  timestamp: number;
}

export interface SignalPerson {
  number: string;
  uuid: string;
  name: string;
}

export interface InboundOptions {
  groupId?: string;
  /** mention the bot (its UUID only, as Signal's mentions usually carry) */
  mentionBot?: boolean;
  /** quote the bot's message sent at this timestamp */
  quoteBot?: number;
  attachments?: { data: Buffer; contentType: string; filename?: string }[];
  timestamp?: number;
}

const MAX_KEPT_EVENTS = 1000;
/** TextStyle.Style of signal-cli */
const TEXT_STYLES = new Set(['NONE', 'BOLD', 'ITALIC', 'SPOILER', 'STRIKETHROUGH', 'MONOSPACE']);

/** Each style as `STYLE:the text it covers`, for readable assertions. */
export function styledParts(sent: Pick<SignalSent, 'message' | 'textStyles'>): string[] {
  return sent.textStyles.map((s) => `${s.style}:${sent.message.slice(s.start, s.start + s.length)}`);
}

/**
 * A send's text styles as signal-cli reads them (JsonRpcNamespace: `textStyle` a string or a list,
 * else `textStyles`; SendCommand.parseTextStyles), or its error; then the fake's own range check.
 */
function readTextStyles(
  params: Record<string, unknown>,
  message: string,
): { styles: SignalTextStyle[] } | { error: Record<string, unknown> } {
  const value = params.textStyle ?? params.textStyles;
  if (value === undefined || value === null) return { styles: [] };
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string')) {
    return { error: { code: -32602, message: 'Invalid params: textStyle must be strings', data: null } };
  }
  const styles: SignalTextStyle[] = [];
  for (const text of list as string[]) {
    const match = /^(\d+):(\d+):(.+)$/.exec(text);
    if (match === null) {
      return {
        error: { code: -1, message: `Invalid textStyle syntax (${text}) expected 'start:length:STYLE'`, data: null },
      };
    }
    const style = match[3] ?? '';
    if (!TEXT_STYLES.has(style)) return { error: { code: -1, message: `Invalid style: ${style}`, data: null } };
    const start = Number(match[1]);
    const length = Number(match[2]);
    if (length === 0 || start + length > message.length) {
      return {
        error: {
          code: -1,
          message: `fake signal-cli: text style ${text} is outside the message (${message.length} UTF-16 code units)`,
          data: null,
        },
      };
    }
    styles.push({ start, length, style });
  }
  return { styles };
}

export interface FakeSignal {
  url: string;
  account: string;
  accountUuid: string;
  calls: RpcCall[];
  sent: SignalSent[];
  reactions: { chatId: string; emoji: string; targetAuthor: string; targetTimestamp: number }[];
  typing: string[];
  /** pushes an event (its data a JSON object, or a raw string as-is); returns its id */
  pushRaw(data: unknown, event?: string): string;
  /** a message from `from`; resolves the envelope pushed (push it again to redeliver) */
  message(
    from: SignalPerson,
    text: string,
    options?: InboundOptions,
  ): { envelope: Record<string, unknown>; messageId: string; chatId: string };
  /** the envelope again, as a new event (a redelivery) */
  redeliver(envelope: Record<string, unknown>): void;
  /** destroys every open event stream */
  dropStreams(): void;
  /** the event stream answers 503 until set back */
  refuseStreams(refuse: boolean): void;
  /** the next `send` is refused as rate limited, with this retry-after */
  rateLimitNextSend(retryAfterSeconds: number): void;
  /** the next `count` sends are refused as rate limited (signal-cli's -5), each with this retry-after */
  rateLimitNextSends(count: number, retryAfterSeconds: number): void;
  /** the next `count` sends get this HTTP status (a 5xx from the daemon or a proxy in front of it), unread */
  failNextSends(count: number, status: number): void;
  /** how the sends were answered so far: refused as rate limited, and HTTP 5xx */
  sendFailures(): { rateLimited: number; serverErrors: number };
  /** the next `send` with attachments is refused (a user error) */
  failNextAttachment(): void;
  streamsOpened(): number;
  openStreams(): number;
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `data:<mime>;filename=<name>;base64,<data>` decoded. */
function fromDataUri(uri: string): SignalSent['attachments'][number] {
  const match = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s.exec(uri);
  if (!match) throw new Error(`not a data URI: ${uri.slice(0, 40)}`);
  const filename = /;filename=([^;,]+)/.exec(match[2] ?? '')?.[1];
  return { contentType: match[1] ?? '', filename, data: Buffer.from(match[3] ?? '', 'base64') };
}

export async function startFakeSignal(options: { account?: string } = {}): Promise<FakeSignal> {
  const account = options.account ?? '+15550009999';
  const accountUuid = randomUUID();
  const calls: RpcCall[] = [];
  const sent: SignalSent[] = [];
  const reactions: FakeSignal['reactions'] = [];
  const typing: string[] = [];
  const events: { id: string; event: string; data: string }[] = [];
  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const stored = new Map<string, Buffer>();
  let nextEventId = 1;
  let clock = 1_700_000_000_000;
  let opened = 0;
  let refusing = false;
  let rateLimit: number | undefined;
  /** the scripted refusals of the next sends, in order: a retry-after (rate limit) or an HTTP status */
  const scriptedSends: ({ retryAfterSeconds: number } | { status: number })[] = [];
  const sendFailures = { rateLimited: 0, serverErrors: 0 };
  let failAttachment = false;

  const tick = () => {
    clock += 1;
    return clock;
  };
  const write = (res: ServerResponse, e: { id: string; event: string; data: string }) =>
    res.write(
      `id:${e.id}\nevent:${e.event}\n${e.data
        .split('\n')
        .map((d) => `data:${d}`)
        .join('\n')}\n\n`,
    );

  const pushRaw = (data: unknown, event = 'receive'): string => {
    const e = { id: String(nextEventId++), event, data: typeof data === 'string' ? data : JSON.stringify(data) };
    events.push(e);
    if (events.length > MAX_KEPT_EVENTS) events.shift();
    for (const res of streams) write(res, e);
    return e.id;
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const targetOf = (params: Record<string, unknown>): string => {
    if (typeof params.groupId === 'string') return `group:${params.groupId}`;
    const r = params.recipient;
    return String(Array.isArray(r) ? r[0] : r);
  };

  function rpc(
    method: string,
    params: Record<string, unknown>,
  ): { result: unknown } | { error: Record<string, unknown> } {
    switch (method) {
      case 'send': {
        const target = targetOf(params);
        const result = (type: string, extra: Record<string, unknown> = {}) => ({
          recipientAddress: { number: target, uuid: null },
          type,
          ...extra,
        });
        // the arguments are read before anything is sent: a bad text style is refused first
        const message = typeof params.message === 'string' ? params.message : '';
        const styles = readTextStyles(params, message);
        if ('error' in styles) return styles;
        const scripted = scriptedSends[0];
        if (rateLimit === undefined && scripted !== undefined && 'retryAfterSeconds' in scripted) {
          scriptedSends.shift();
          rateLimit = scripted.retryAfterSeconds;
        }
        if (rateLimit !== undefined) {
          const retryAfterSeconds = rateLimit;
          rateLimit = undefined;
          sendFailures.rateLimited += 1;
          return {
            error: {
              code: -5,
              message: 'Failed to send message due to rate limiting',
              data: { response: { timestamp: tick(), results: [result('RATE_LIMIT_FAILURE', { retryAfterSeconds })] } },
            },
          };
        }
        const list = Array.isArray(params.attachments) ? (params.attachments as string[]) : [];
        if (list.length > 0 && failAttachment) {
          failAttachment = false;
          return { error: { code: -1, message: 'Failed to send message: attachment too large', data: null } };
        }
        const timestamp = tick();
        sent.push({
          chatId: target,
          message,
          textStyles: styles.styles,
          attachments: list.map(fromDataUri),
          ...(typeof params.quoteTimestamp === 'number' ? { quoteTimestamp: params.quoteTimestamp } : {}),
          ...(typeof params.quoteAuthor === 'string' ? { quoteAuthor: params.quoteAuthor } : {}),
          timestamp,
        });
        return { result: { timestamp, results: [result('SUCCESS')] } };
      }
      case 'sendReaction':
        reactions.push({
          chatId: targetOf(params),
          emoji: String(params.emoji),
          targetAuthor: String(params.targetAuthor),
          targetTimestamp: Number(params.targetTimestamp),
        });
        return { result: { timestamp: tick(), results: [] } };
      case 'sendTyping':
        typing.push(targetOf(params));
        return { result: { timestamp: tick(), results: [] } };
      case 'getAttachment': {
        const data = stored.get(String(params.id));
        if (data === undefined) {
          return {
            error: { code: -1, message: `Could not find attachment with ID: ${String(params.id)}`, data: null },
          };
        }
        return { result: { data: data.toString('base64') } };
      }
      case 'getUserStatus':
        return {
          result: [{ recipient: account, number: account, username: null, uuid: accountUuid, isRegistered: true }],
        };
      case 'listGroups':
        return { result: [] };
      case 'version':
        return { result: { version: '0.13.99-fake' } };
      default:
        return { error: { code: -32601, message: 'Method not implemented', data: null } };
    }
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/api/v1/check') {
      res.writeHead(req.method === 'GET' ? 200 : 405);
      res.end();
      return;
    }
    if (url.pathname === '/api/v1/rpc') {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return void res.writeHead(415).end();
      let request: { id?: unknown; method?: unknown; params?: unknown };
      try {
        request = JSON.parse(await readBody(req)) as typeof request;
      } catch {
        return json(res, 200, {
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error', data: null },
          id: null,
        });
      }
      if (typeof request.method !== 'string') {
        return json(res, 200, {
          jsonrpc: '2.0',
          error: { code: -32600, message: 'method field must be set', data: null },
          id: null,
        });
      }
      const params = (typeof request.params === 'object' && request.params !== null ? request.params : {}) as Record<
        string,
        unknown
      >;
      calls.push({ method: request.method, params });
      const failure = scriptedSends[0];
      if (request.method === 'send' && failure !== undefined && 'status' in failure) {
        scriptedSends.shift();
        sendFailures.serverErrors += 1;
        return void res.writeHead(failure.status, { 'content-type': 'text/plain' }).end('scripted failure');
      }
      return json(res, 200, { jsonrpc: '2.0', ...rpc(request.method, params), id: request.id ?? null });
    }
    if (url.pathname === '/api/v1/events') {
      if (req.method !== 'GET') return void res.writeHead(405).end();
      if (refusing) return void res.writeHead(503).end();
      opened += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(':\n');
      const last = req.headers['last-event-id'];
      if (typeof last === 'string') {
        const at = events.findIndex((e) => e.id === last);
        for (const e of at === -1 ? events : events.slice(at + 1)) write(res, e);
      }
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    res.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    account,
    accountUuid,
    calls,
    sent,
    reactions,
    typing,
    pushRaw,
    message(from, text, opts = {}) {
      const timestamp = opts.timestamp ?? tick();
      let body = text;
      const mentions: Record<string, unknown>[] = [];
      if (opts.mentionBot) {
        mentions.push({ name: account, number: null, uuid: accountUuid, start: 0, length: 1 });
        body = `\uFFFC ${text}`;
      }
      const attachments = (opts.attachments ?? []).map((file) => {
        const id = `${randomUUID().replace(/-/g, '').slice(0, 20)}${file.filename ? `.${file.filename.split('.').pop()}` : ''}`;
        stored.set(id, file.data);
        return { contentType: file.contentType, filename: file.filename ?? null, id, size: file.data.length };
      });
      const envelope = {
        source: from.number,
        sourceNumber: from.number,
        sourceUuid: from.uuid,
        sourceName: from.name,
        sourceDevice: 1,
        timestamp,
        serverReceivedTimestamp: timestamp + 5,
        serverDeliveredTimestamp: timestamp + 6,
        dataMessage: {
          timestamp,
          message: body,
          expiresInSeconds: 0,
          viewOnce: false,
          ...(mentions.length > 0 ? { mentions } : {}),
          ...(attachments.length > 0 ? { attachments } : {}),
          ...(opts.quoteBot !== undefined
            ? {
                quote: {
                  id: opts.quoteBot,
                  author: account,
                  authorNumber: account,
                  authorUuid: accountUuid,
                  text: '…',
                  attachments: [],
                },
              }
            : {}),
          ...(opts.groupId !== undefined
            ? { groupInfo: { groupId: opts.groupId, groupName: 'Team', revision: 3, type: 'DELIVER' } }
            : {}),
        },
      };
      pushRaw({ envelope, account });
      return {
        envelope,
        messageId: `${timestamp}:${from.number}`,
        chatId: opts.groupId !== undefined ? `group:${opts.groupId}` : from.number,
      };
    },
    redeliver(envelope) {
      pushRaw({ envelope, account });
    },
    dropStreams() {
      for (const res of streams) res.socket?.destroy();
      streams.clear();
    },
    refuseStreams(refuse) {
      refusing = refuse;
    },
    rateLimitNextSend(retryAfterSeconds) {
      rateLimit = retryAfterSeconds;
    },
    rateLimitNextSends(count, retryAfterSeconds) {
      for (let i = 0; i < count; i += 1) scriptedSends.push({ retryAfterSeconds });
    },
    failNextSends(count, status) {
      for (let i = 0; i < count; i += 1) scriptedSends.push({ status });
    },
    sendFailures: () => ({ ...sendFailures }),
    failNextAttachment() {
      failAttachment = true;
    },
    streamsOpened: () => opened,
    openStreams: () => streams.size,
    reset() {
      calls.length = 0;
      sent.length = 0;
      reactions.length = 0;
      typing.length = 0;
      rateLimit = undefined;
      scriptedSends.length = 0;
      sendFailures.rateLimited = 0;
      sendFailures.serverErrors = 0;
      failAttachment = false;
      refusing = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Signal user for tests: a number, a UUID and a profile name. */
export function signalPerson(index: number, name = `User${index}`): SignalPerson {
  return { number: `+1555123${String(index).padStart(4, '0')}`, uuid: randomUUID(), name };
}
