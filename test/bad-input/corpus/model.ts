// Model responses: what a broken or hostile OpenAI-compatible endpoint can answer. Structured ones
// are scripted on the fake OpenAI server (a 200 with any JSON body, error statuses, tool calls with
// junk names and arguments, hangs); byte-level ones (truncated JSON, HTML, broken SSE) come from
// the raw model endpoint in front of it.
import type { Reply } from '../../fakes/openai-server.js';
import { mutate } from '../lib/mutate.js';
import { deeplyNested, megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import type { Rng } from '../lib/prng.js';
import type { RawReply } from '../lib/raw-model.js';

export interface ModelCase {
  label: string;
  /** replies for this case's requests, in order; the last one repeats */
  replies?: Reply[];
  /** raw bytes instead (every request of the case) */
  raw?: RawReply;
  /** only meaningful for streaming requests (SSE bytes) */
  streamOnly?: boolean;
  /** the answer is the gateway's silence marker: a platform user gets no reply, by design */
  silent?: boolean;
}

const ok = (text = 'recovered'): Reply => ({ text });
const body200 = (body: object): Reply => ({ status: 200, body });

function completion(message: unknown, extra: Record<string, unknown> = {}): object {
  return {
    id: 'chatcmpl-junk',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    ...extra,
  };
}

function toolCall(name: unknown, args: unknown, extra: Record<string, unknown> = {}): object {
  return { id: 'call_junk', type: 'function', function: { name, arguments: args }, ...extra };
}

export function handWrittenModel(): ModelCase[] {
  const cases: ModelCase[] = [];
  const add = (label: string, ...replies: Reply[]) => cases.push({ label, replies: [...replies, ok()] });
  // bodies that are not a chat completion
  for (const [label, body] of [
    ['empty object', {}],
    ['choices null', { choices: null }],
    ['choices empty', { choices: [] }],
    ['choices an object', { choices: {} }],
    ['choices a string', { choices: 'x' }],
    ['choices [null]', { choices: [null] }],
    ['choices [{}]', { choices: [{}] }],
    ['message null', completion(null)],
    ['message empty', completion({})],
    ['content a number', completion({ role: 'assistant', content: 5 })],
    ['content an object', completion({ role: 'assistant', content: { text: 'x' } })],
    ['content a list', completion({ role: 'assistant', content: [{ type: 'text', text: 'x' }] })],
    ['content empty', completion({ role: 'assistant', content: '' })],
    ['content whitespace', completion({ role: 'assistant', content: ' \n\t ' })],
    ['content nested 1000 deep', completion({ role: 'assistant', content: deeplyNested(1_000) })],
    ['usage a string', completion({ role: 'assistant', content: 'x' }, { usage: 'lots' })],
    ['finish_reason a number', { choices: [{ message: { role: 'assistant', content: 'x' }, finish_reason: 5 }] }],
    ['tool_calls a string', completion({ role: 'assistant', content: null, tool_calls: 'x' })],
    ['tool_calls an object', completion({ role: 'assistant', content: null, tool_calls: {} })],
    ['tool_calls [null]', completion({ role: 'assistant', content: null, tool_calls: [null] })],
    ['tool_calls [{}]', completion({ role: 'assistant', content: null, tool_calls: [{}] })],
    ['tool call without function', completion({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] })],
    [
      'tool call function null',
      completion({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: null }] }),
    ],
    ['tool call name a number', completion({ role: 'assistant', tool_calls: [toolCall(5, '{}')] })],
    ['tool call arguments an object', completion({ role: 'assistant', tool_calls: [toolCall('calculate', { a: 1 })] })],
    ['tool call arguments a number', completion({ role: 'assistant', tool_calls: [toolCall('calculate', 5)] })],
    ['tool call arguments null', completion({ role: 'assistant', tool_calls: [toolCall('calculate', null)] })],
    [
      'tool call id missing',
      completion({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'x', arguments: '{}' } }] }),
    ],
    ['tool call id a number', completion({ role: 'assistant', tool_calls: [toolCall('x', '{}', { id: 7 })] })],
    ['tool call type bogus', completion({ role: 'assistant', tool_calls: [toolCall('x', '{}', { type: 'bogus' })] })],
  ] as const) {
    add(`200 body: ${label}`, body200(body));
  }
  // error statuses, with and without an OpenAI error body
  for (const status of [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 529]) {
    add(`HTTP ${status}`, { status });
    add(`HTTP ${status} with a junk error body`, { status, body: { error: 'not an object', detail: [1, 2] } });
  }
  add('HTTP 500 with a 1 MB error message', { status: 500, body: { error: { message: megabyteText(41) } } });
  add('HTTP 400 with an error message that is a number', { status: 400, body: { error: { message: 5 } } });
  add('HTTP 429 with retry-after "abc"', { status: 429, headers: { 'retry-after': 'abc' } });
  add('HTTP 429 with retry-after -5', { status: 429, headers: { 'retry-after': '-5' } });
  add('HTTP 429 with retry-after 1e10', { status: 429, headers: { 'retry-after': '1e10' } });
  // tool calls the model should not make
  for (const [label, name, args] of [
    ['unknown tool', 'does_not_exist', '{}'],
    ['empty tool name', '', '{}'],
    ['tool named __proto__', '__proto__', '{}'],
    ['tool named constructor', 'constructor', '{}'],
    ['tool named toString', 'toString', '{}'],
    ['tool name with spaces and controls', 'rm -rf /\u0000\n', '{}'],
    ['1 MB tool name', megabyteText(42), '{}'],
    ['arguments not JSON', 'calculate', '{"expression": '],
    ['arguments truncated', 'calculate', '{"expr'],
    ['arguments null', 'calculate', 'null'],
    ['arguments a list', 'calculate', '[1,2]'],
    ['arguments a number', 'calculate', '5'],
    ['arguments a string', 'calculate', '"2+2"'],
    ['arguments empty', 'calculate', ''],
    ['arguments with a wrong type', 'calculate', '{"expression": 5}'],
    ['arguments 1 MB', 'calculate', JSON.stringify({ expression: megabyteText(43) })],
    ['arguments nested 5000 deep', 'calculate', `{"expression":${'['.repeat(5_000)}1${']'.repeat(5_000)}}`],
    ['arguments with __proto__', 'calculate', '{"__proto__":{"polluted":true},"expression":"1+1"}'],
    ['unit_convert with junk units', 'unit_convert', '{"value":"x","from":{},"to":null}'],
    ['send_message without a target', 'send_message', '{"action":"send","message":"x"}'],
    ['send_message with a junk target', 'send_message', '{"action":"send","target":"::::","message":"x"}'],
    ['send_message action list', 'send_message', '{"action":"list"}'],
    ['skill_view of a path', 'skill_view', '{"name":"../../../etc/passwd"}'],
  ] as const) {
    add(`tool call: ${label}`, { toolCalls: [{ name, arguments: args }] });
  }
  add('100 tool calls at once', {
    toolCalls: Array.from({ length: 100 }, (_, i) => ({
      name: i % 2 ? 'calculate' : 'nope',
      arguments: '{"expression":"1+1"}',
    })),
  });
  add('duplicate tool call ids', {
    toolCalls: [
      { name: 'calculate', arguments: '{"expression":"1"}', id: 'same' },
      { name: 'calculate', arguments: '{"expression":"2"}', id: 'same' },
    ],
  });
  cases.push({
    label: 'tool calls forever (max_iterations)',
    replies: [{ toolCalls: [{ name: 'does_not_exist', arguments: '{}' }] }],
  });
  // answers that are text, but hostile
  for (const [i, text] of NASTY_STRINGS.entries()) {
    cases.push({ label: `answer text #${i} (${text.length} chars)`, replies: [{ text }], silent: text === '[SILENT]' });
  }
  add('1 MB answer', { text: megabyteText(44) });
  add('finish_reason length', { text: 'cut', finishReason: 'length' });
  add('finish_reason content_filter', { text: 'filtered', finishReason: 'content_filter' });
  add('slow answer', { text: 'slow', delayMs: 800 });
  cases.push({ label: 'no answer at all (hang)', replies: [{ hang: true }] });
  // byte-level junk
  const raw = (label: string, reply: RawReply, streamOnly = false) => cases.push({ label, raw: reply, streamOnly });
  const json = 'application/json';
  raw('truncated JSON', { status: 200, contentType: json, body: '{"choices":[{"message":{"content":"tru' });
  raw('HTML page', { status: 200, contentType: 'text/html', body: '<html><body>Bad Gateway</body></html>' });
  raw('empty 200', { status: 200, contentType: json, body: '' });
  raw('JSON null', { status: 200, contentType: json, body: 'null' });
  raw('JSON array', { status: 200, contentType: json, body: '[]' });
  raw('binary junk', { status: 200, contentType: json, body: new Uint8Array([0, 255, 254, 1, 2, 3, 0xc3, 0x28]) });
  raw('BOM before JSON', {
    status: 200,
    contentType: json,
    body: `\ufeff${JSON.stringify(completion({ role: 'assistant', content: 'bom' }))}`,
  });
  raw('JSON as text/plain', {
    status: 200,
    contentType: 'text/plain',
    body: JSON.stringify(completion({ role: 'assistant', content: 'plain' })),
  });
  raw('HTML 502', { status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
  raw('connection cut mid-body', { status: 200, contentType: json, body: '{"choices":[{"mess', cut: true });
  const sse = 'text/event-stream';
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  raw('SSE: bad JSON', { status: 200, contentType: sse, body: ['data: {bad json\n\n', 'data: [DONE]\n\n'] }, true);
  raw('SSE: only [DONE]', { status: 200, contentType: sse, body: ['data: [DONE]\n\n'] }, true);
  raw(
    'SSE: chunks without choices',
    { status: 200, contentType: sse, body: ['data: {"id":"x"}\n\n', 'data: [DONE]\n\n'] },
    true,
  );
  raw(
    'SSE: content a number',
    { status: 200, contentType: sse, body: [chunk({ content: 5 }), 'data: [DONE]\n\n'] },
    true,
  );
  raw(
    'SSE: tool call index 100 000 000',
    {
      status: 200,
      contentType: sse,
      body: [
        chunk({ tool_calls: [{ index: 100_000_000, id: 'c', function: { name: 'nope', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ],
    },
    true,
  );
  raw(
    'SSE: tool call index -1',
    {
      status: 200,
      contentType: sse,
      body: [
        chunk({ tool_calls: [{ index: -1, id: 'c', function: { name: 'nope', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ],
    },
    true,
  );
  raw(
    'SSE: an error event',
    { status: 200, contentType: sse, body: ['event: error\ndata: {"error":{"message":"boom"}}\n\n'] },
    true,
  );
  raw('SSE: cut before [DONE]', { status: 200, contentType: sse, body: [chunk({ content: 'half' })], cut: true }, true);
  raw('SSE: no [DONE]', { status: 200, contentType: sse, body: [chunk({ content: 'end' }, 'stop')] }, true);
  raw(
    'SSE: 1 MB line',
    { status: 200, contentType: sse, body: [chunk({ content: megabyteText(45) }), 'data: [DONE]\n\n'] },
    true,
  );
  raw('SSE: data null', { status: 200, contentType: sse, body: ['data: null\n\n', 'data: [DONE]\n\n'] }, true);
  return cases;
}

/** Seeded mutations of a valid chat completion (and of one with a tool call). */
export function generatedModel(rng: Rng, count: number): ModelCase[] {
  const out: ModelCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = rng.chance(0.5)
      ? completion(
          { role: 'assistant', content: `generated ${i}` },
          { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
        )
      : completion({ role: 'assistant', content: null, tool_calls: [toolCall('calculate', '{"expression":"6*7"}')] });
    const m = mutate(base, rng, { kinds: ['drop', 'type', 'text', 'extra', 'array'] });
    out.push({ label: `generated #${i}: ${m.label}`, replies: [body200(m.value as object), ok()] });
  }
  return out;
}
