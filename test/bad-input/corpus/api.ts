// Requests to the API platform (POST /v1/chat/completions): broken bodies, headers and methods.
import { deepMarker, jsonText, mutate } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS, WRONG_VALUES } from '../lib/nasty.js';
import type { Rng } from '../lib/prng.js';

export interface ApiCase {
  label: string;
  method?: string;
  /** the request body as sent */
  body?: string | Uint8Array;
  /** headers besides the defaults (content-type JSON and the bearer key), `null` to leave one out */
  headers?: Record<string, string | null>;
  /** the answer must be 401 (an auth case) */
  unauthorized?: boolean;
  /** a valid request that must be answered 200 */
  valid?: boolean;
}

const user = (content: unknown) => ({ role: 'user', content });

/** A valid request body around `content`. */
export function validBody(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'hermes', messages: [{ role: 'system', content: 'be brief' }, user(content)], ...extra };
}

export function handWrittenApi(key: string): ApiCase[] {
  const cases: ApiCase[] = [];
  const json = (label: string, value: unknown, more: Partial<ApiCase> = {}) =>
    cases.push({ label, body: jsonText(value), ...more });
  const raw = (label: string, body: string | Uint8Array, more: Partial<ApiCase> = {}) =>
    cases.push({ label, body, ...more });
  raw('empty body', '');
  raw('whitespace body', ' \n ');
  raw('not JSON', 'hello');
  raw('truncated JSON', '{"messages":[{"role":"user","content":"hi"');
  raw('JSON null', 'null');
  raw('JSON array', '[]');
  raw('JSON string', '"messages"');
  raw('JSON number', '42');
  raw('NaN literal', '{"messages": NaN}');
  raw('5 MB body', `{"messages":[{"role":"user","content":"${'x'.repeat(5 * 1024 * 1024)}"}]}`);
  raw('invalid UTF-8 in the content', invalidUtf8Body());
  raw('BOM before JSON', `\ufeff${JSON.stringify(validBody('bom'))}`);
  json('no messages', {});
  for (const value of WRONG_VALUES) json(`messages=${JSON.stringify(value)?.slice(0, 30)}`, { messages: value });
  json('messages nested 20000 deep', { messages: deepMarker(20_000, 'array') });
  json('a message nested 20000 deep', { messages: [deepMarker(20_000, 'object')] });
  for (const [label, message] of [
    ['role missing', { content: 'x' }],
    ['role is a number', { role: 5, content: 'x' }],
    ['content missing', { role: 'user' }],
    ['content is a number', user(5)],
    ['content is null', user(null)],
    ['content is an object', user({ text: 'x' })],
    ['content is a list of parts', user([{ type: 'text', text: 'hi' }])],
    ['role assistant last', { role: 'assistant', content: 'x' }],
    ['role system last', { role: 'system', content: 'x' }],
    ['role tool last', { role: 'tool', content: 'x', tool_call_id: 'c' }],
    ['role upper-case', { role: 'USER', content: 'x' }],
    ['role empty', { role: '', content: 'x' }],
  ] as const) {
    json(`last message: ${label}`, { messages: [message] });
  }
  // a valid last message after hostile history (stateless: the history goes to the model and the transcript)
  for (const [label, history] of [
    ['history with an unknown role', [{ role: 'evil', content: 'x' }]],
    ['history with a tool message without a call', [{ role: 'tool', content: 'x' }]],
    ['history with junk tool_calls', [{ role: 'assistant', content: null, tool_calls: 'junk' }]],
    ['history with tool_calls of junk', [{ role: 'assistant', content: null, tool_calls: [null, 1, { id: 5 }] }]],
    ['history with an object content', [user({ a: 1 })]],
    ['history with a number content', [user(5)]],
    ['history with a content nested 20000 deep', [user(deepMarker(20_000, 'object'))]],
    ['history of 2000 messages', Array.from({ length: 2_000 }, (_, i) => user(`m${i}`))],
    ['history with a 1 MB message', [user(megabyteText(31))]],
    ['history of nulls', [null, null]],
  ] as const) {
    json(label, { messages: [...history, user(`after ${label}`)] });
  }
  for (const [i, text] of NASTY_STRINGS.entries()) {
    json(`content #${i} (${text.length} chars)`, validBody(text), { valid: text.length > 0 });
  }
  json('1 MB content', validBody(megabyteText(32)), { valid: true });
  // keys Hermes reads or knows must have OpenAI's types (400 naming the param): the schema, api/schemas.ts
  json('stream as a string', validBody('s', { stream: 'true' }));
  json('stream true', validBody('streamed', { stream: true }), { valid: true });
  json('stream true with a bad body', { messages: [], stream: true });
  json('stream 1', validBody('s1', { stream: 1 }));
  json('user is an object', validBody('u', { user: { id: 1 } }));
  json('user is 1 MB', validBody('u', { user: megabyteText(33) }), { valid: true });
  json('user with control chars', validBody('u', { user: '\u0000\u0001x' }), { valid: true });
  json('model is a number', validBody('m', { model: 5 }));
  json('tools is junk', validBody('t', { tools: 'junk', tool_choice: 5 }));
  json('temperature is a string', validBody('t', { temperature: 'hot', max_tokens: -1 }));
  json('unknown keys', validBody('k', { frequency_penalty: 0, vendor_flag: { a: [1] } }), { valid: true });
  json('__proto__ key', JSON.parse('{"__proto__":{"polluted":true},"messages":[{"role":"user","content":"p"}]}'), {
    valid: true,
  });
  const valid = JSON.stringify(validBody('headers'));
  raw('content-type text/plain', valid, { headers: { 'content-type': 'text/plain' } });
  raw('no content-type', valid, { headers: { 'content-type': null } });
  raw('content-type form', 'messages=x', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  raw('content-type multipart', valid, { headers: { 'content-type': 'multipart/form-data; boundary=x' } });
  raw('content-type json with charset utf-16', valid, {
    headers: { 'content-type': 'application/json; charset=utf-16' },
  });
  raw('x-hermes-session of 8 KB', JSON.stringify(validBody('session')), {
    headers: { 'x-hermes-session': 's'.repeat(8_000) },
    valid: true,
  });
  raw('x-hermes-session with odd characters', JSON.stringify(validBody('session2')), {
    headers: { 'x-hermes-session': `'; DROP TABLE sessions; --` },
    valid: true,
  });
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) cases.push({ label: `method ${method}`, method });
  cases.push({ label: 'method OPTIONS', method: 'OPTIONS' });
  // authentication: every one must be refused before anything runs
  const auth = (label: string, authorization: string | null) =>
    raw(`auth: ${label}`, JSON.stringify(validBody(`auth ${label}`)), {
      headers: { authorization },
      unauthorized: true,
    });
  auth('no Authorization', null);
  auth('empty', '');
  auth('Bearer without a key', 'Bearer');
  auth('Bearer and a space', 'Bearer ');
  auth('wrong key', 'Bearer wrong-key');
  auth('key with a suffix', `Bearer ${key}x`);
  auth('key prefix', `Bearer ${key.slice(0, -1)}`);
  auth('key upper-cased', `Bearer ${key.toUpperCase()}`);
  auth('Basic scheme', `Basic ${Buffer.from(`user:${key}`).toString('base64')}`);
  auth('key without a scheme', key);
  auth('Token scheme', `Token ${key}`);
  auth('two keys', `Bearer ${key}, Bearer ${key}`);
  auth('8 KB key', `Bearer ${'k'.repeat(8_192)}`);
  return cases;
}

/** Seeded mutations of a valid request body. */
export function generatedApi(rng: Rng, count: number): ApiCase[] {
  const out: ApiCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = {
      ...validBody(`generated ${i}`),
      stream: rng.chance(0.3),
      ...(rng.chance(0.3) ? { user: `u${rng.int(0, 5)}` } : {}),
    };
    const m = mutate(base, rng);
    out.push({ label: `generated #${i}: ${m.label}`, body: jsonText(m.value) });
  }
  return out;
}

function invalidUtf8Body(): Uint8Array {
  const [before, after] = JSON.stringify(validBody('INVALID-UTF8')).split('INVALID-UTF8');
  return Buffer.concat([Buffer.from(before ?? ''), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(after ?? '')]);
}
