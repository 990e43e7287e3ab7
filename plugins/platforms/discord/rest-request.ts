/**
 * discord.js REST's HTTP requests (its documented `makeRequest` option) on the one undici the
 * gateway loads: the root package.json's `overrides` point discord.js and @discordjs/rest at undici
 * 7 instead of a copy of undici 6 each (about 1 MB of heap apiece).
 *
 * A JSON request (every send, edit, typing and reaction) goes through the dispatcher's `dispatch`
 * with a handler that keeps the answer's bytes, as the model request does: `request()`, which
 * @discordjs/rest's own strategy calls, wraps each exchange in an AsyncResource, a Readable for the
 * body and a consumer to read it back. Discord's answers are small JSON, read whole by
 * @discordjs/rest anyway. An upload goes through `request()`: @discordjs/rest builds its body as the
 * global `FormData` (Node's bundled undici), which undici 7's brand check refuses ("action is not a
 * function"), so it is copied into undici 7's own FormData, entry by entry.
 */
import { Blob, type File } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import { answerBytes, bufferedExchange } from '@hermes/protocol';
import { DefaultRestOptions, type RESTOptions, type ResponseLike } from 'discord.js';
import {
  type Dispatcher,
  getGlobalDispatcher,
  Headers,
  type RequestInit,
  request,
  FormData as UndiciFormData,
} from 'undici';

/** A copy of an upload's body as undici's FormData (files keep their name and type). */
export function undiciFormData(body: globalThis.FormData): UndiciFormData {
  const copy = new UndiciFormData();
  // typed by hand: undici-types' FormData and undici 7's are different declarations
  const entries = body as unknown as Iterable<[string, string | File]>;
  for (const [name, value] of entries) {
    if (typeof value === 'string') copy.append(name, value);
    else copy.append(name, value, value.name);
  }
  return copy;
}

/** An answer read whole: what @discordjs/rest reads of a response (status, headers, the body once). */
export function bufferedResponse(status: number, headers: Headers, bytes: Buffer): ResponseLike {
  let used = false;
  const take = (): Buffer => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    return bytes;
  };
  return {
    get body() {
      return new Blob([bytes]).stream();
    },
    get bodyUsed() {
      return used;
    },
    arrayBuffer: async () => {
      const b = take();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    },
    json: async () => JSON.parse(take().toString('utf8')) as unknown,
    text: async () => take().toString('utf8'),
    headers,
    status,
    statusText: STATUS_CODES[status] ?? '',
    ok: status >= 200 && status < 300,
  };
}

function headersOf(raw: readonly Buffer[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    headers.append((raw[i] as Buffer).toString('latin1'), (raw[i + 1] as Buffer).toString('latin1'));
  }
  return headers;
}

const dispatcherOf = (init: RequestInit): Dispatcher => init.dispatcher ?? getGlobalDispatcher();

/** One exchange through `dispatch` (bufferedExchange); an abort of `init.signal` (discord.js's timeout) aborts it with the signal's reason. */
async function exchange(url: string, init: RequestInit, body: string | Uint8Array | null): Promise<ResponseLike> {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  const answer = await bufferedExchange(
    dispatcherOf(init),
    {
      origin: slash === -1 ? url : url.slice(0, slash),
      path: slash === -1 ? '/' : url.slice(slash),
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body,
    },
    { signal: init.signal },
  );
  return bufferedResponse(answer.status, headersOf(answer.rawHeaders), answerBytes(answer));
}

async function sendForm(url: string, init: RequestInit, body: UndiciFormData): Promise<ResponseLike> {
  const res = await request(url, { ...init, body } as Parameters<typeof request>[1]);
  return {
    body: res.body,
    arrayBuffer: () => res.body.arrayBuffer(),
    json: () => res.body.json(),
    text: () => res.body.text(),
    get bodyUsed() {
      return res.body.bodyUsed;
    },
    headers: new Headers(
      Object.entries(res.headers).flatMap(([name, value]): [string, string][] =>
        (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((one) => [name, one]),
      ),
    ),
    status: res.statusCode,
    statusText: STATUS_CODES[res.statusCode] ?? '',
    ok: res.statusCode >= 200 && res.statusCode < 300,
  };
}

/**
 * The `makeRequest` of the adapter's REST clients: a JSON or empty body through `dispatch`, an
 * upload through undici's FormData, any other body (none the adapter sends) as discord.js sends it.
 */
export const makeRequest: RESTOptions['makeRequest'] = (url: string, init: RequestInit): Promise<ResponseLike> => {
  const body = init.body;
  if (body === undefined || body === null || typeof body === 'string') return exchange(url, init, body ?? null);
  if (body instanceof globalThis.FormData) return sendForm(url, init, undiciFormData(body));
  return DefaultRestOptions.makeRequest(url, init);
};
