// Bad input on the long-lived intake paths: Telegram long polling (updates from getUpdates) and
// Slack Socket Mode (envelopes and raw frames over the socket). One real daemon in-process; every
// update must be confirmed (the offset passes it: nothing stalls the loop), every envelope acked
// (Slack would redeliver it), and a valid message answered after every batch.
import { randomUUID } from 'node:crypto';
import type { Update } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import {
  envelopeText,
  generatedSlack,
  handWrittenSlack,
  hostileSlackTexts,
  rawSlackFrames,
  type SlackCase,
} from './corpus/slack.js';
import {
  dmUpdate,
  generatedTelegram,
  handWrittenTelegram,
  hostileTexts,
  type TelegramCase,
  TelegramIds,
} from './corpus/telegram.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { materialize, maxDepthOf } from './lib/mutate.js';
import { type Canary, canaries, echoModel, type Fakes, platformSetup, startFakes } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { eventually, until } from './lib/wait.js';

const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let fakes: Fakes;
let daemon: Daemon;
let canary: Record<string, Canary>;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  fakes = await startFakes();
  const { env, platforms } = platformSetup(fakes, 'stream');
  daemon = await startDaemon({ env, modelUrl: model.url, config: { gateway: { platforms } } });
  await fakes.slack.waitForLiveSocket(15_000);
  canary = canaries(fakes, 'stream', daemon.url);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await fakes?.close();
  await model?.close();
  tally.report('platform-stream');
}, 30_000);

function answered(platform: string, key: string | undefined): (() => string | null) | undefined {
  if (key === undefined) return undefined;
  return () => {
    const row = daemon.message(platform, key);
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

/** The offset the polling loop persisted (the next update_id it wants), or 0. */
const offset = () => Number(daemon.platformState('telegram', 'offset') ?? 0);

describe('bad input on long polling and Socket Mode (one daemon)', () => {
  it('telegram polling: every update is confirmed, none stalls the loop, valid ones are answered', async () => {
    const tg = fakes.telegram;
    const ids = new TelegramIds(700_000);
    // the canary takes its update id from the same sequence: update ids only grow, as on Telegram
    const tgCanary = async (tag: string) => {
      tg.pushUpdate(dmUpdate(ids, `canary ${tag}`).update as unknown as Update);
      await until(`the telegram canary ${tag}`, () => tg.sent.some((m) => m.text.includes(tag)), 20_000);
    };
    const toCase = (c: TelegramCase): Case => {
      const update = materialize(c.update) as Update;
      const id = update.update_id;
      return {
        label: c.label,
        send: async () => {
          tg.pushUpdate(update);
          return null;
        },
        verify: () => {
          if (offset() <= id) return `update ${id} never confirmed: the polling loop stalled at offset ${offset()}`;
          return answered('telegram', c.answerKey)?.() ?? null;
        },
      };
    };
    // the fake serialises what getUpdates returns with JSON.stringify (recursive: 2 000 levels can
    // already overflow its stack and stall it with 500s): nesting stays at 500 levels here
    // (deeper payloads are covered on the webhook path, where the bytes go straight to the gateway)
    const cases = [
      ...hostileTexts(ids, true),
      ...handWrittenTelegram(ids, { keepUpdateId: true }).filter((c) => maxDepthOf(c.update) <= 500),
      ...generatedTelegram(rng.fork('telegram-polling'), ids, 110, { keepUpdateId: true, depths: [64, 250, 500] }),
    ].map((c) => toCase(c));
    await runBatches(cases, { edge: 'telegram-polling', tally, daemon, canary: tgCanary });
    expectAllPassed('telegram-polling');
  }, 240_000);

  it('slack socket mode: every envelope is acked, malformed events and frames are skipped', async () => {
    const slack = fakes.slack;
    const acked = (id: string) => slack.acks.some((ack) => ack.envelopeId === id);
    const toCase = (c: SlackCase): Case => {
      const envelopeId = randomUUID();
      return {
        label: c.label,
        send: async () => {
          slack.pushRaw(envelopeText(c.body, envelopeId));
          return null;
        },
        verify: () => {
          if (!acked(envelopeId)) return `envelope ${envelopeId} never acked (Slack would redeliver it)`;
          return answered('slack', c.answerKey)?.() ?? null;
        },
      };
    };
    const cases: Case[] = [
      ...hostileSlackTexts(slack),
      ...handWrittenSlack(slack),
      ...generatedSlack(rng.fork('slack-socket'), slack, 110),
    ].map((c) => toCase(c));
    for (const [label, frame] of rawSlackFrames()) {
      cases.push({
        label: `raw frame: ${label}`,
        send: async () => {
          slack.pushRaw(frame);
          return null;
        },
      });
    }
    const connectionsBefore = slack.connectionCount();
    await runBatches(cases, {
      edge: 'slack-socket',
      tally,
      daemon,
      canary: canary.slack!,
      afterBatch: async () =>
        (await eventually(() => slack.openConnections() === 1, 10_000))
          ? null
          : `${slack.openConnections()} sockets open after the batch`,
    });
    console.log(
      `slack-socket: ${slack.connectionCount() - connectionsBefore} reconnect(s), at most ${slack.maxOpenConnections()} sockets open`,
    );
    expectAllPassed('slack-socket');
  }, 240_000);
});
