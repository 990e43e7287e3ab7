// Signal through `hermes gateway run`: the bundled plugin loaded on SIGNAL_HTTP_URL + SIGNAL_ACCOUNT,
// events read off the fake signal-cli daemon's SSE stream (test/fakes/signal-server.ts), answers
// and reactions through its JSON-RPC endpoint, the fake model behind. One gateway for the file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagePartsOf } from '../fakes/openai-server.js';
import { type FakeSignal, signalPerson, startFakeSignal, styledParts } from '../fakes/signal-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor, waitForValue } from '../helpers/wait-for.js';

const ALICE = signalPerson(1, 'Alice');
const BOB = signalPerson(2, 'Bob'); // allowlisted by UUID
const STRANGER = signalPerson(3, 'Mallory');
const GROUP = 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=';

const openai = useFakeOpenAI();
let signal: FakeSignal;
let gw: RunningGateway;

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const texts = () => signal.sent.map((m) => m.message);
const health = async () =>
  (await (await fetch(`${gw.url}/health`)).json()) as { platforms: Record<string, { state: string }> };

beforeAll(async () => {
  signal = await startFakeSignal();
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\ndisplay:\n  reactions: true\n');
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    SIGNAL_HTTP_URL: signal.url,
    SIGNAL_ACCOUNT: signal.account,
    SIGNAL_ALLOWED_USERS: `${ALICE.number},${BOB.uuid}`,
  });
});
afterAll(async () => {
  const code = await gw?.stop();
  await signal?.close();
  expect(code).toBe(0);
});
beforeEach(() => signal.reset());

describe('Signal through hermes gateway run', () => {
  it('a DM is answered with Signal text styles, typing and 👀 then ✅; health says connected', async () => {
    expect((await health()).platforms.signal?.state).toBe('connected');
    // the model answers once "typing…" was shown (it starts after 300 ms; a fast answer would race it)
    openai.server.respond(async () => {
      await waitFor(() => signal.typing.length > 0, { what: 'the typing indicator' });
      return { text: 'Hello from **Hermes**' };
    });
    const sent = signal.message(ALICE, 'hi bot');
    await waitFor(() => texts().length > 0, { what: 'the answer' });
    expect(signal.sent[0]).toMatchObject({
      chatId: ALICE.number,
      message: 'Hello from Hermes',
      textStyles: [{ start: 11, length: 6, style: 'BOLD' }],
    });
    await waitFor(() => signal.reactions.some((r) => r.emoji === '✅'), { what: 'the ✅ reaction' });
    const target = {
      chatId: ALICE.number,
      targetAuthor: ALICE.number,
      targetTimestamp: Number(sent.messageId.split(':')[0]),
    };
    expect(signal.reactions).toEqual([
      { ...target, emoji: '👀' },
      { ...target, emoji: '✅' },
    ]);
    expect(signal.typing).toContain(ALICE.number);
    // every call names the account (a multi-account daemon needs it)
    expect(signal.calls.every((c) => c.params.account === signal.account)).toBe(true);
  });

  it('a Markdown answer carries its styles at UTF-16 offsets the daemon accepts', async () => {
    openai.server.script({
      text: '## 结果 🎉\nRun `npm **test**`, then *check* ~~nothing~~ ||later||:\n| name | 👍 |\n|---|---|\n| **a** | 1 |\n```\nx = y * 2\n```',
    });
    signal.message(ALICE, 'styles please');
    await waitFor(() => texts().length > 0, { what: 'the styled answer' });
    const [answer] = signal.sent;
    expect(answer?.message).toBe(
      '结果 🎉\nRun npm **test**, then check nothing later:\nname | 👍\n-----+--\na    | 1\nx = y * 2',
    );
    expect(styledParts(answer ?? { message: '', textStyles: [] })).toEqual([
      'BOLD:结果 🎉',
      'MONOSPACE:npm **test**',
      'ITALIC:check',
      'STRIKETHROUGH:nothing',
      'SPOILER:later',
      'MONOSPACE:name | 👍\n-----+--\na    | 1',
      'MONOSPACE:x = y * 2',
    ]);
  });

  it('a user allowlisted by UUID is answered; a redelivered event is answered once', async () => {
    openai.server.script({ text: 'hi Bob' }, { text: 'the marker' });
    const first = signal.message(BOB, 'hello');
    await waitFor(() => texts().length > 0, { what: 'the answer' });
    signal.redeliver(first.envelope);
    signal.message(BOB, 'marker');
    await waitFor(() => texts().includes('the marker'), { what: 'the marker answer' });
    expect(texts()).toEqual(['hi Bob', 'the marker']);
  });

  it('an unknown number gets a pairing code and nothing else', async () => {
    const before = chats().length;
    signal.message(STRANGER, 'let me in');
    await waitFor(() => texts().length > 0, { what: 'the pairing reply' });
    expect(signal.sent).toHaveLength(1);
    expect(signal.sent[0]?.chatId).toBe(STRANGER.number);
    expect(signal.sent[0]?.message).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(chats()).toHaveLength(before);
  });

  it('in a group: answered when the bot is mentioned or quoted, not otherwise', async () => {
    openai.server.script({ text: 'answer to the mention' }, { text: 'answer to the quote' });
    const before = chats().length;
    signal.message(ALICE, 'just chatting', { groupId: GROUP });
    const mention = signal.message(ALICE, 'what time is it?', { groupId: GROUP, mentionBot: true });
    await waitFor(() => texts().length > 0, { what: 'the answer to the mention' });
    expect(signal.sent[0]?.chatId).toBe(`group:${GROUP}`);
    // in a group the answer quotes the message it answers (its timestamp and author, as Signal names it)
    expect(signal.sent[0]).toMatchObject({ quoteTimestamp: mention.envelope.timestamp, quoteAuthor: ALICE.number });
    const asked = chats().at(-1)?.body?.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(asked.at(-1))).toContain('what time is it?');
    expect(JSON.stringify(asked)).not.toContain('\uFFFC');
    const botSent = signal.sent[0]?.timestamp ?? 0;
    signal.message(ALICE, 'and tomorrow?', { groupId: GROUP, quoteBot: botSent });
    await waitFor(() => texts().length > 1, { what: 'the answer to the quote' });
    expect(texts()).toEqual(['answer to the mention', 'answer to the quote']);
    // the unaddressed message started no turn of its own (it is only the next turn's context)
    expect(chats()).toHaveLength(before + 2);
    expect(JSON.stringify(chats().at(-2)?.body)).toContain('not addressed to you:]\\nAlice: just chatting');
  });

  it('a photo reaches the model with its bytes, fetched with getAttachment', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('signal jpeg '.repeat(100))]);
    openai.server.script({ text: 'a photo of text' });
    signal.message(ALICE, 'what is this?', { attachments: [{ data: photo, contentType: 'image/jpeg' }] });
    await waitFor(() => texts().length > 0, { what: 'the photo answer' });
    expect(imagePartsOf(chats().at(-1))).toEqual([{ mimeType: 'image/jpeg', data: photo }]);
    const fetched = signal.calls.filter((c) => c.method === 'getAttachment');
    expect(fetched).toHaveLength(1);
    expect(fetched[0]?.params.recipient).toBe(ALICE.number);
  });

  it('the stream dropped and refused: health error, then connected again; the message sent meanwhile is answered once', async () => {
    const opened = signal.streamsOpened();
    signal.refuseStreams(true);
    signal.dropStreams();
    await waitForValue(health, (h) => h.platforms.signal?.state === 'error', { what: 'signal in error' });
    openai.server.script({ text: 'back again' });
    signal.message(ALICE, 'are you there?'); // kept by the daemon, replayed after Last-Event-ID
    signal.refuseStreams(false);
    await waitFor(() => texts().length > 0, { what: 'the answer after the reconnect' });
    await waitForValue(health, (h) => h.platforms.signal?.state === 'connected', { what: 'signal connected again' });
    expect(signal.streamsOpened()).toBeGreaterThan(opened);
    expect(signal.openStreams()).toBe(1);
    openai.server.script({ text: 'the marker' });
    signal.message(ALICE, 'marker');
    await waitFor(() => texts().includes('the marker'), { what: 'the marker answer' });
    expect(texts()).toEqual(['back again', 'the marker']);
  });
});
