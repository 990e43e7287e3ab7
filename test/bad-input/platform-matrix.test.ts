// Bad input on Matrix's /sync (the fake homeserver's answers): malformed timeline events, unknown
// event types, whole sync bodies that are not one, hostile and huge texts, redeliveries and a long
// poll dropped right after an event. One real daemon in-process against the fake homeserver; a
// sync answer is read whole before the next is asked, so the canary answered after each batch
// shows that no input stalled the loop; the long poll must be waiting again and nothing lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMatrix, type MatrixPerson, startFakeMatrix } from '../fakes/matrix-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import {
  generatedMatrix,
  handWrittenMatrix,
  hostileMatrixTexts,
  type MatrixCase,
  type MatrixInput,
  MX_ALLOWED,
  MX_ALLOWED_USERS,
  MX_STRANGER,
  mxExtraUser,
  mxText,
  syncWith,
} from './corpus/matrix.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { EXTRA_USERS, echoModel, lastUserText } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { eventually, until } from './lib/wait.js';

const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let matrix: FakeMatrix;
let daemon: Daemon;
const dms = new Map<string, string>();
/** the event id of each message a test case sent through the fake's own log, by its marker */
const keys = new Map<string, string>();
let group = '';

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  matrix = await startFakeMatrix();
  for (const p of [MX_ALLOWED, MX_STRANGER, ...Array.from({ length: EXTRA_USERS }, (_, i) => mxExtraUser(i))]) {
    dms.set(p.userId, matrix.directRoom(p));
  }
  group = matrix.groupRoom([MX_ALLOWED, MX_STRANGER]);
  daemon = await startDaemon({
    env: {
      MATRIX_HOMESERVER_URL: matrix.url,
      MATRIX_ACCESS_TOKEN: matrix.accessToken,
      MATRIX_USER_ID: matrix.bot.userId,
      MATRIX_ALLOWED_USERS: MX_ALLOWED_USERS.join(','),
    },
    modelUrl: model.url,
    // no typing calls: every answered input would add a request that proves nothing here
    config: { gateway: { platforms: { matrix: { typing_indicator: false, sync_timeout_ms: 5_000 } } } },
  });
  await until('the matrix long poll', () => matrix.pendingSyncs() > 0, 15_000);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await matrix?.close();
  await model?.close();
  tally.report('platform-matrix');
}, 30_000);

function answered(key: string | undefined): (() => string | null) | undefined {
  if (key === undefined) return undefined;
  return () => {
    const row = daemon.message('matrix', key);
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

const dmOf = (p: MatrixPerson): string => dms.get(p.userId) ?? `!no-dm:${p.userId}`;

/** Hands one input to the next /sync; a whole sync body waits until it was read and a sync went well again. */
async function push(input: MatrixInput): Promise<string | null> {
  if (input.kind === 'events') {
    const room = input.room === 'group' ? group : 'dm' in input.room ? dmOf(input.room.dm) : input.room.id;
    matrix.nextSyncRaw(syncWith(room, input.events));
    return null;
  }
  matrix.nextSyncRaw(input.text);
  // read, then (after a refusal's backoff) asked again: the next input does not pile up behind it.
  // The request that read the body is no longer a waiting long poll, and the loop runs one sync at a
  // time, so a waiting poll once the body was taken is the loop asking again (not its 5 s timeout)
  const ok = await eventually(() => matrix.pendingRaw() === 0 && matrix.pendingSyncs() > 0, 12_000);
  return ok ? null : 'the sync loop did not ask again after the answer';
}

const seenByModel = (marker: string) => model.requests.filter((r) => lastUserText(r).includes(marker)).length;

/** Answered (inbox row done, replies sent), and the model saw the message exactly once. */
function answeredOnce(key: string, marker: string): string | null {
  const problem = answered(key)?.() ?? null;
  if (problem !== null) return problem;
  const seen = seenByModel(marker);
  return seen === 1 ? null : `the model saw the message ${seen} times`;
}

describe('bad input on the Matrix sync (one daemon)', () => {
  it('matrix sync: malformed events and bodies are skipped, the loop keeps going, valid messages are answered once', async () => {
    const inputs: MatrixCase[] = [
      ...hostileMatrixTexts(),
      ...handWrittenMatrix(matrix.bot),
      ...generatedMatrix(rng.fork('matrix-sync'), matrix.bot, 90),
    ];
    const cases: Case[] = inputs.map((c) => ({
      label: c.label,
      send: () => push(c.input),
      ...(c.answerKey === undefined ? {} : { verify: answered(c.answerKey) }),
    }));
    // redeliveries: the same event in two sync answers (a token reused after a crash) is one turn
    for (let i = 0; i < 3; i++) {
      const marker = `matrix-redelivered-${i}`;
      const from = mxExtraUser(60 + i);
      const { event, key } = mxText(from, marker);
      cases.push({
        label: `a message delivered twice #${i}`,
        send: async () => {
          await push({ kind: 'events', room: { dm: from }, events: [event] });
          return push({ kind: 'events', room: { dm: from }, events: [event] });
        },
        verify: () => answeredOnce(key, marker),
      });
    }
    // the long poll dropped right after an event: read before the drop or again from the token, once
    for (let i = 0; i < 2; i++) {
      const marker = `matrix-dropped-${i}`;
      const from = mxExtraUser(70 + i);
      cases.push({
        label: `the long poll dropped right after a message #${i}`,
        send: async () => {
          const event = matrix.message(dmOf(from), from, marker);
          matrix.dropSyncs();
          keys.set(marker, String(event.event_id));
          return null;
        },
        verify: () => answeredOnce(keys.get(marker) ?? '?', marker),
      });
    }
    const pollsBefore = matrix.syncsOpened();
    await runBatches(cases, {
      edge: 'matrix-sync',
      tally,
      daemon,
      canary: async (tag) => {
        matrix.message(dmOf(MX_ALLOWED), MX_ALLOWED, `canary ${tag}`);
        await until(
          `the matrix canary ${tag}`,
          () => matrix.messages().some((m) => String(m.content.body).includes(tag)),
          20_000,
        );
      },
      afterBatch: async () =>
        (await eventually(() => matrix.pendingSyncs() === 1, 15_000))
          ? null
          : `${matrix.pendingSyncs()} long polls waiting after the batch`,
    });
    console.log(`matrix-sync: ${matrix.syncsOpened() - pollsBefore} long polls during ${cases.length} inputs`);
    expectAllPassed('matrix-sync');
  }, 300_000);
});
