// Bad input to the API platform (POST /v1/chat/completions: broken bodies, headers, methods, keys)
// and from the model (malformed completions, error statuses, junk tool calls, broken streams), each
// model response tried through the API (plain and streamed) and through a Telegram message. One real
// daemon in-process; a request always gets a clear answer within its deadline, a Telegram user
// always gets a reply (the answer or a "could not answer" apology), and nothing is left pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type Reply, startFakeOpenAI } from '../fakes/openai-server.js';
import { type ApiCase, generatedApi, handWrittenApi, validBody } from './corpus/api.js';
import { generatedModel, handWrittenModel, type ModelCase } from './corpus/model.js';
import { dmUpdate, TelegramIds } from './corpus/telegram.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { type Fakes, lastUserText, platformSetup, post, startFakes, TG_PATH, TG_SECRET } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type RawModel, startRawModel } from './lib/raw-model.js';
import { type Edge, Tally } from './lib/tally.js';
import { eventually, until } from './lib/wait.js';

const API_KEY = 'bad-input-api-server-key-3f9a7c21';
const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let raw: RawModel;
let fakes: Fakes;
let daemon: Daemon;
const ids = new TelegramIds(900_000);

/** Replies per case marker (the last one repeats), and how many requests each marker got. */
const scripted = new Map<string, Reply[]>();
const served = new Map<string, number>();

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.respond((request) => {
    const text = lastUserText(request);
    const marker = /mcase\d+x/.exec(text)?.[0];
    const replies = marker === undefined ? undefined : scripted.get(marker);
    if (marker === undefined || replies === undefined) return { text: `echo: ${text.slice(0, 200)}` };
    const n = served.get(marker) ?? 0;
    served.set(marker, n + 1);
    return replies[Math.min(n, replies.length - 1)] as Reply;
  });
  raw = await startRawModel(model.url);
  fakes = await startFakes();
  const { env, platforms } = platformSetup(fakes, 'http');
  daemon = await startDaemon({
    // every Telegram user is allowed: each model case talks in its own DM, so sessions stay small and run in parallel
    env: { ...env, API_SERVER_KEY: API_KEY, TELEGRAM_ALLOWED_USERS: '*' },
    modelUrl: raw.url,
    config: {
      model: { timeout_s: 2 },
      agent: { toolsets: ['messaging', 'skills', 'calculator'] },
      plugins: { enabled: ['calculator'] },
      gateway: { platforms },
    },
  });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await fakes?.close();
  await raw?.close();
  await model?.close();
  tally.report('api-model');
}, 30_000);

function expectAllPassed(edge: Edge): void {
  const { tried, passed } = tally.count(edge);
  expect(tried).toBeGreaterThan(0);
  expect(tally.failuresOf(edge), `seed ${seed}`).toEqual([]);
  expect(passed).toBe(tried);
}

const completionsUrl = () => `${daemon.url}/v1/chat/completions`;

interface ApiAnswer {
  status: number;
  type: string;
  text: string;
  error?: string;
}

async function callApi(c: ApiCase, timeoutMs = 20_000): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` };
  for (const [key, value] of Object.entries(c.headers ?? {})) {
    if (value === null) delete headers[key];
    else headers[key] = value;
  }
  const method = c.method ?? 'POST';
  // a string body makes fetch add text/plain itself: bytes keep "no content-type" true
  const body = method === 'GET' || method === 'OPTIONS' ? undefined : Buffer.from(c.body ?? '');
  try {
    const res = await fetch(completionsUrl(), { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  } catch (error) {
    return {
      status: 0,
      type: '',
      text: '',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

/** What is wrong with an answer the API gave: the shape of a completion, a stream or an error. */
function answerProblem(a: ApiAnswer, allowed: ReadonlySet<number>): string | null {
  if (a.status === 0) return `no answer: ${a.error}`;
  if (!allowed.has(a.status)) return `answered HTTP ${a.status}: ${a.text.slice(0, 200)}`;
  if (a.status === 200 && a.type.startsWith('text/event-stream')) {
    if (!a.text.endsWith('data: [DONE]\n\n')) return `stream did not end with [DONE]: …${a.text.slice(-120)}`;
    for (const line of a.text.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')) {
      try {
        JSON.parse(line.slice(6));
      } catch {
        return `a stream line is not JSON: ${line.slice(0, 120)}`;
      }
    }
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.text);
  } catch {
    return a.status === 404 || a.status === 405 ? null : `body is not JSON: ${a.text.slice(0, 120)}`;
  }
  const p = parsed as {
    choices?: { message?: { content?: unknown } }[];
    error?: { message?: unknown };
    message?: unknown;
  };
  if (a.status === 200) {
    return typeof p.choices?.[0]?.message?.content === 'string'
      ? null
      : `200 without a message: ${a.text.slice(0, 200)}`;
  }
  const message = p.error?.message ?? p.message;
  return typeof message === 'string' && message !== '' ? null : `error without a message: ${a.text.slice(0, 200)}`;
}

const apiCanary = async (tag: string) => {
  const a = await callApi({ label: 'canary', body: JSON.stringify(validBody(`canary ${tag}`)) });
  if (a.status !== 200 || !a.text.includes(tag))
    throw new Error(`the API canary got ${a.status}: ${a.text.slice(0, 200)}`);
};

const tgCanary = async (tag: string) => {
  const { update } = dmUpdate(ids, `canary ${tag}`);
  const res = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), {
    'content-type': 'application/json',
    'x-telegram-bot-api-secret-token': TG_SECRET,
  });
  if (res.status !== 200) throw new Error(`the telegram canary was answered ${res.status}`);
  await until(`the telegram canary ${tag}`, () => fakes.telegram.sent.some((m) => m.text.includes(tag)), 20_000);
};

const API_ANSWERS = new Set([200, 400, 404, 405, 413, 415]);

describe('bad input at the API platform and from the model (one daemon)', () => {
  it('api platform: broken bodies, headers, methods and keys get a clear answer, never a 500 or a hang', async () => {
    const apiCases = [...handWrittenApi(API_KEY), ...generatedApi(rng.fork('api'), 120)];
    const cases: Case[] = apiCases.map((c) => ({
      label: c.label,
      send: async () => {
        const a = await callApi(c);
        if (c.unauthorized)
          return a.status === 401 ? answerProblem(a, new Set([401])) : `answered ${a.status}, expected 401`;
        if (c.valid && a.status !== 200) return `a valid request answered ${a.status}: ${a.text.slice(0, 200)}`;
        return answerProblem(a, API_ANSWERS);
      },
    }));
    const before = model.requests.length;
    await runBatches(cases, { edge: 'api-platform', tally, daemon, canary: apiCanary, concurrent: 4 });
    // refused keys never reached the model
    expect(model.requests.slice(before).filter((r) => lastUserText(r).startsWith('auth '))).toEqual([]);
    expectAllPassed('api-platform');
  }, 240_000);

  it('model responses: malformed completions, statuses, tool calls and streams end in an answer or a clear error', async () => {
    const modelCases: ModelCase[] = [...handWrittenModel(), ...generatedModel(rng.fork('model'), 30)];
    let n = 0;
    const marker = (c: ModelCase): string => {
      n += 1;
      const m = `mcase${n}x`;
      if (c.raw) raw.set(m, c.raw);
      else scripted.set(m, c.replies ?? [{ text: 'recovered' }]);
      return m;
    };
    const apiCases: Case[] = [];
    const telegramCases: Case[] = [];
    for (const c of modelCases) {
      if (!c.streamOnly) {
        const m = marker(c);
        apiCases.push({
          label: `api: ${c.label}`,
          send: async () =>
            answerProblem(
              await callApi({ label: c.label, body: JSON.stringify(validBody(`${m} go`)) }),
              new Set([200, 502]),
            ),
        });
      }
      const s = marker(c);
      apiCases.push({
        label: `api stream: ${c.label}`,
        send: async () =>
          answerProblem(
            await callApi({ label: c.label, body: JSON.stringify(validBody(`${s} go`, { stream: true })) }),
            new Set([200]),
          ),
      });
      if (c.streamOnly) continue;
      const t = marker(c);
      const { update, key } = dmUpdate(ids, `${t} go`, 50_000 + n);
      telegramCases.push({
        label: `telegram: ${c.label}`,
        send: async () => {
          const res = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), {
            'content-type': 'application/json',
            'x-telegram-bot-api-secret-token': TG_SECRET,
          });
          if (res.status !== 200) return `webhook answered ${res.status}`;
          // the turn finishes (answer or apology) within the per-input deadline
          const done = await eventually(() => {
            const row = daemon.message('telegram', key);
            return row !== undefined && row.status !== 'accepted' && row.status !== 'processing';
          }, 25_000);
          return done ? null : 'the turn did not finish';
        },
        verify: () => {
          const row = daemon.message('telegram', key);
          if (row === undefined) return 'never accepted';
          if (row.status !== 'done' && row.status !== 'failed') return `inbox row ${row.status}`;
          if (c.silent && row.status === 'done' && row.outbox.length === 0) return null;
          if (row.outbox.length === 0 || row.outbox.some((st) => st !== 'sent'))
            return `replies: ${row.outbox.join(',')}`;
          return null;
        },
      });
    }
    await runBatches(apiCases, {
      edge: 'model-response',
      tally,
      daemon,
      canary: apiCanary,
      concurrent: 4,
      inputTimeoutMs: 30_000,
    });
    await runBatches(telegramCases, {
      edge: 'model-response',
      tally,
      daemon,
      canary: tgCanary,
      concurrent: 4,
      inputTimeoutMs: 30_000,
    });
    expectAllPassed('model-response');
  }, 300_000);
});
