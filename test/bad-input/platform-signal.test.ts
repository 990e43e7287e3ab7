// Bad input on Signal's event stream (signal-cli's SSE at /api/v1/events): malformed data lines,
// envelopes of other kinds (receipts, typing, sync, calls, edits), raw SSE lines, hostile and huge
// texts, redeliveries and a stream dropped right after an event. One real daemon in-process against
// the fake daemon; events are read one after another, so the canary answered after each batch shows
// that no event stalled the stream; the stream must be open again and nothing lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeSignal, startFakeSignal } from '../fakes/signal-server.js';
import {
  generatedSignal,
  handWrittenSignal,
  hostileSignalTexts,
  SIG_ALLOWED,
  SIG_ALLOWED_USERS,
  type SignalCase,
  type SignalInput,
  sigExtraUser,
  signalText,
} from './corpus/signal.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { jsonText } from './lib/mutate.js';
import { echoModel, lastUserText } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { eventually, until } from './lib/wait.js';

const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let signal: FakeSignal;
let daemon: Daemon;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  signal = await startFakeSignal();
  daemon = await startDaemon({
    env: {
      SIGNAL_HTTP_URL: signal.url,
      SIGNAL_ACCOUNT: signal.account,
      SIGNAL_ALLOWED_USERS: SIG_ALLOWED_USERS.join(','),
    },
    modelUrl: model.url,
    // no typing calls: every answered input would add an RPC that proves nothing here
    config: { gateway: { platforms: { signal: { typing_indicator: false } } } },
  });
  await until('the signal event stream', () => signal.openStreams() > 0, 15_000);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await signal?.close();
  await model?.close();
  tally.report('platform-signal');
}, 30_000);

function answered(key: string | undefined): (() => string | null) | undefined {
  if (key === undefined) return undefined;
  return () => {
    const row = daemon.message('signal', key);
    if (row === undefined) return `never accepted (no inbox row ${key})`;
    if (row.status !== 'done') return `inbox row ${row.status}, expected done`;
    if (row.outbox.length === 0 || row.outbox.some((s) => s !== 'sent')) return `replies ${row.outbox.join(',')}`;
    return null;
  };
}

function expectAllPassed(edge: Edge): void {
  const { tried, passed } = tally.count(edge);
  expect(tried).toBeGreaterThan(0);
  expect(tally.failuresOf(edge), `seed ${seed}`).toEqual([]);
  expect(passed).toBe(tried);
}

/** Pushes one input on the stream (the fake writes `id:`, `event:`, then each line of the data as `data:`). */
function push(input: SignalInput): void {
  if (input.kind === 'event') {
    signal.pushRaw(typeof input.data === 'string' ? input.data : jsonText(input.data), input.event);
    return;
  }
  // the fake writes the event name on its own line: the raw lines ride after it, before a harmless data line
  signal.pushRaw(JSON.stringify({ account: signal.account }), `receive\n${input.lines}`);
}

const seenByModel = (marker: string) => model.requests.filter((r) => lastUserText(r).includes(marker)).length;

/** Answered (inbox row done, replies sent), and the model saw the message exactly once. */
function answeredOnce(key: string, marker: string): string | null {
  const problem = answered(key)?.() ?? null;
  if (problem !== null) return problem;
  const seen = seenByModel(marker);
  return seen === 1 ? null : `the model saw the message ${seen} times`;
}

describe('bad input on the Signal event stream (one daemon)', () => {
  it('signal events: malformed data and lines are skipped, the stream keeps going, valid ones are answered once', async () => {
    const inputs: SignalCase[] = [
      ...hostileSignalTexts(signal.account),
      ...handWrittenSignal(signal.account, signal.accountUuid),
      ...generatedSignal(rng.fork('signal-events'), signal.account, signal.accountUuid, 90),
    ];
    const cases: Case[] = inputs.map((c) => ({
      label: c.label,
      send: async () => {
        push(c.input);
        return null;
      },
      ...(c.answerKey === undefined ? {} : { verify: answered(c.answerKey) }),
    }));
    // redeliveries: the same event twice (signal-cli replaying after a reconnect) is one turn
    for (let i = 0; i < 3; i++) {
      const marker = `signal-redelivered-${i}`;
      const { data, key } = signalText(sigExtraUser(60 + i), marker, signal.account);
      cases.push({
        label: `a message delivered twice #${i}`,
        send: async () => {
          push({ kind: 'event', data });
          push({ kind: 'event', data });
          return null;
        },
        verify: () => answeredOnce(key, marker),
      });
    }
    // the stream dropped right after an event: read before the drop or replayed after Last-Event-ID, once
    for (let i = 0; i < 2; i++) {
      const marker = `signal-dropped-${i}`;
      const { data, key } = signalText(sigExtraUser(70 + i), marker, signal.account);
      cases.push({
        label: `the stream dropped right after a message #${i}`,
        send: async () => {
          push({ kind: 'event', data });
          signal.dropStreams();
          return null;
        },
        verify: () => answeredOnce(key, marker),
      });
    }
    const streamsBefore = signal.streamsOpened();
    await runBatches(cases, {
      edge: 'signal-events',
      tally,
      daemon,
      canary: async (tag) => {
        push({ kind: 'event', data: signalText(SIG_ALLOWED, `canary ${tag}`, signal.account).data });
        await until(`the signal canary ${tag}`, () => signal.sent.some((m) => m.message.includes(tag)), 20_000);
      },
      afterBatch: async () =>
        (await eventually(() => signal.openStreams() === 1, 15_000))
          ? null
          : `${signal.openStreams()} event streams open after the batch`,
    });
    console.log(`signal-events: ${signal.streamsOpened() - streamsBefore} reconnect(s) during ${cases.length} inputs`);
    expectAllPassed('signal-events');
  }, 240_000);
});
