/**
 * discord.js REST's HTTP requests (its documented `makeRequest` option) on the one undici the
 * gateway loads: the root package.json's `overrides` point discord.js and @discordjs/rest at undici
 * 7 instead of a copy of undici 6 each (about 1 MB of heap apiece). The one thing undici 7 does not
 * take from @discordjs/rest's own strategy is an upload's body: @discordjs/rest builds it as the
 * global `FormData` (Node's bundled undici), which undici 7's brand check refuses ("action is not a
 * function"); it is copied into undici 7's own FormData here, entry by entry, and sent with undici's
 * `request()` as @discordjs/rest's strategy does.
 */
import type { File } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import { DefaultRestOptions, type RESTOptions, type ResponseLike } from 'discord.js';
import { Headers, type RequestInit, request, FormData as UndiciFormData } from 'undici';

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

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

async function sendForm(url: string, init: RequestInit, body: UndiciFormData): Promise<ResponseLike> {
  const options = { ...init, body } as Parameters<typeof request>[1];
  const res = await request(url, options);
  return {
    body: res.body,
    arrayBuffer: () => res.body.arrayBuffer(),
    json: () => res.body.json(),
    text: () => res.body.text(),
    get bodyUsed() {
      return res.body.bodyUsed;
    },
    headers: headersOf(res.headers),
    status: res.statusCode,
    statusText: STATUS_CODES[res.statusCode] ?? '',
    ok: res.statusCode >= 200 && res.statusCode < 300,
  };
}

/** The `makeRequest` of the adapter's REST clients: an upload through undici's FormData, anything else as discord.js sends it. */
export const makeRequest: RESTOptions['makeRequest'] = (url: string, init: RequestInit): Promise<ResponseLike> =>
  init.body instanceof globalThis.FormData
    ? sendForm(url, init, undiciFormData(init.body))
    : DefaultRestOptions.makeRequest(url, init);
