// Streamed answers by edits and reactions as status (issue 18, items 4 and 5): the same scenarios
// for every platform whose adapter edits and reacts, through its real SDK against its fake, with a
// real in-process gateway (SQLite, the fake model streaming its answer in pieces).
import type { DisplaySettings } from '@hermes/gateway';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import type { EditProbe, PlatformDriver } from './driver.js';
import { selectedDrivers } from './drivers/index.js';
import { type ContractGateway, startContractGateway } from './harness.js';
import { eventually } from './recorders.js';

const WAIT_MS = 30_000;
const STREAM: Partial<DisplaySettings> = { streaming: true, streamIntervalMs: 50 };
const squash = (s: string) => s.replace(/\s+/g, '');
/** the text a rendered message shows, markup aside (Telegram HTML tags, Slack/Discord asterisks) */
const visible = (s: string) => squash(s.replace(/<[^>]+>/g, '').replace(/[*_]/g, ''));

const drivers = selectedDrivers().filter((d): d is PlatformDriver & { edits: EditProbe } => d.edits !== undefined);

/** What each posted message shows now: its text, or its newest edit. */
function shownNow(probe: EditProbe): { id: string; text: string }[] {
  return probe.posted().map((m) => ({ id: m.id, text: probe.edits().findLast((e) => e.id === m.id)?.text ?? m.text }));
}

describe.each(drivers.map((d) => [d.label, d] as const))('streaming and reactions: %s', (_label, driver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  const alice = driver.user(0);
  const probe = driver.edits;

  const start = async (display: Partial<DisplaySettings>, dbPath?: string) => {
    gw = await startContractGateway(driver, model, { allowed: [alice], display, ...(dbPath ? { dbPath } : {}) });
    await driver.waitReady();
    return gw;
  };
  const delivered = async (g: ContractGateway) => {
    await eventually(
      () => g.store.outbox.pending().length === 0 && g.store.inbox.pending().length === 0,
      WAIT_MS,
      'delivery',
    );
    await g.gateway.idle();
  };

  beforeAll(async () => {
    model = await startFakeOpenAI();
    await driver.start();
  });
  afterAll(async () => {
    await driver.close();
    await model.close();
  });
  beforeEach(() => {
    model.reset();
    driver.reset();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = null;
  });

  it('streaming on: the answer is one message, edited at least twice, ending with the whole formatted text', async () => {
    const g = await start(STREAM);
    const answer = 'The first part of the answer, then a second part, and **the end** of it.';
    model.script({ text: answer, chunkDelayMs: 75 });
    await driver.dm(alice, 'stream please');
    await eventually(() => probe.edits().some((e) => visible(e.text) === visible(answer)), WAIT_MS, 'the final edit');
    await delivered(g);
    const posted = probe.posted();
    expect(posted).toHaveLength(1);
    const id = posted[0]?.id;
    expect(probe.edits().every((e) => e.id === id)).toBe(true);
    expect(probe.edits().length).toBeGreaterThanOrEqual(2);
    const final = probe.edits().at(-1)?.text ?? '';
    // the final edit carries the answer as formatted for the platform and written to the outbox
    const [row] = g.store.outbox.forInbox(1);
    expect(row?.formatted).toBe(true);
    expect(row?.status).toBe('sent');
    expect(final).toBe(row?.text);
    expect(visible(final)).toBe(visible(answer));
    // the model was asked to stream
    expect(model.requests.find((r) => r.path.endsWith('/chat/completions'))?.body?.stream).toBe(true);
  });

  it('streaming off (the default): one message, never edited', async () => {
    const g = await start({});
    model.script({ text: 'A plain answer.', chunkDelayMs: 25 });
    await driver.dm(alice, 'no streaming');
    await eventually(() => probe.posted().length === 1, WAIT_MS, 'the answer');
    await delivered(g);
    expect(probe.edits()).toHaveLength(0);
    expect(model.requests.find((r) => r.path.endsWith('/chat/completions'))?.body?.stream).not.toBe(true);
  });

  it('a 429 on an edit is waited out and the final text still arrives in the one message', async () => {
    const g = await start(STREAM);
    probe.rateLimitNextEdit(1_000);
    const answer = 'Rate limited streams still end with every word of the answer.';
    model.script({ text: answer, chunkDelayMs: 50 });
    await driver.dm(alice, 'hurry');
    await eventually(() => shownNow(probe).some((m) => visible(m.text) === visible(answer)), WAIT_MS, 'the final text');
    await delivered(g);
    expect(probe.posted()).toHaveLength(1);
  });

  it('past the platform limit a new message continues; together they show the whole answer', async () => {
    const g = await start(STREAM);
    const paragraph = (i: number) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(3).trim()}.`;
    const count = Math.ceil((driver.maxMessageLength * 1.4) / paragraph(0).length);
    const answer = Array.from({ length: count }, (_, i) => paragraph(i)).join('\n\n');
    model.script({ text: answer, chunkDelayMs: 60 });
    await driver.dm(alice, 'a long one');
    const whole = () =>
      visible(
        shownNow(probe)
          .map((m) => m.text)
          .join(''),
      );
    await eventually(() => whole() === visible(answer), WAIT_MS, 'the whole answer');
    await delivered(g);
    const shown = shownNow(probe);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(visible(shown.map((m) => m.text).join(''))).toBe(visible(answer));
  });

  it('bad input: an edit the platform refuses (the message was deleted) sends the final text as a new message', async () => {
    const g = await start(STREAM);
    probe.refuseNextEdits(20);
    const answer = 'Nothing is lost when the streamed message is gone.';
    model.script({ text: answer, chunkDelayMs: 40 });
    await driver.dm(alice, 'delete it');
    await eventually(() => probe.posted().some((m) => visible(m.text) === visible(answer)), WAIT_MS, 'the fallback');
    await delivered(g);
    // the chat goes on
    model.script({ text: 'Still here.' });
    await driver.dm(alice, 'again');
    await eventually(
      () => shownNow(probe).some((m) => visible(m.text) === visible('Still here.')),
      WAIT_MS,
      'next answer',
    );
  });

  it('a restart in mid-stream: the redone turn edits the same message, one complete answer', async () => {
    const first = await start(STREAM);
    const answer = 'Complete answer after the restart, every word of it.';
    model.script({ text: answer, chunkDelayMs: 200 });
    await driver.dm(alice, 'cut me off');
    await eventually(() => probe.posted().length === 1, WAIT_MS, 'the first streamed message');
    await first.stop(); // cut off: the row stays pending, the streamed message id stays in state
    gw = null;
    expect(first.store).toBeDefined();
    model.script({ text: answer, chunkDelayMs: 10 });
    const second = await start(STREAM, first.dbPath);
    await eventually(() => shownNow(probe).some((m) => visible(m.text) === visible(answer)), WAIT_MS, 'the answer');
    await delivered(second);
    expect(probe.posted()).toHaveLength(1);
  });

  it('tool progress: a line per tool step in the streamed message, replaced by the answer', async () => {
    const g = await start({ ...STREAM, toolProgress: true });
    const answer = 'Looked it up: the answer is 42.';
    model.script(
      { toolCalls: [{ name: 'lookup_fact', arguments: { q: 'answer' } }], text: 'Let me check.', chunkDelayMs: 30 },
      { text: answer, chunkDelayMs: 75, delayMs: 150 },
    );
    await driver.dm(alice, 'use a tool');
    await eventually(() => shownNow(probe).some((m) => visible(m.text) === visible(answer)), WAIT_MS, 'the answer');
    await delivered(g);
    expect(probe.posted()).toHaveLength(1);
    const seen = [...probe.posted().map((m) => m.text), ...probe.edits().map((e) => e.text)];
    expect(seen.some((text) => text.includes('lookup_fact'))).toBe(true);
  });

  it('reactions: 👀 while working, ✅ once answered', async () => {
    const g = await start({ reactions: true });
    model.script({ text: 'Answered.', delayMs: 300 }); // 👀 is shown only while the turn runs
    const ref = await driver.dm(alice, 'react to me');
    await eventually(() => probe.reactionsOn(ref).includes(probe.native('👀')), WAIT_MS, '👀');
    await eventually(() => probe.reactionsOn(ref).includes(probe.native('✅')), WAIT_MS, '✅');
    await delivered(g);
    expect(probe.reactionsOn(ref)).toEqual([probe.native('✅')]);
  });

  it('reactions: ❌ when the turn fails', async () => {
    const g = await start({ reactions: true });
    model.script({ status: 400 });
    const ref = await driver.dm(alice, 'fail please');
    await eventually(() => probe.reactionsOn(ref).includes(probe.native('❌')), WAIT_MS, '❌');
    await delivered(g);
    expect(probe.reactionsOn(ref)).toEqual([probe.native('❌')]);
  });
});
