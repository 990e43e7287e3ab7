// One contract, every platform: the same scenarios run through each platform's real SDK against
// its fake, with a real in-process gateway (SQLite, Fastify on 127.0.0.1, the fake model).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';
import type { PlatformDriver } from './driver.js';
import { selectedDrivers } from './drivers/index.js';
import { type ContractGateway, startContractGateway } from './harness.js';
import { eventually } from './recorders.js';
import { answers, settleWithMarker } from './settle.js';

const WAIT_MS = 30_000;

const until = (what: string, check: () => boolean, timeoutMs = WAIT_MS): Promise<void> =>
  eventually(check, timeoutMs, what);

const chatRequests = (model: FakeOpenAI): RecordedRequest[] =>
  model.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** The text of the user messages the model received in a request. */
function userTexts(request: RecordedRequest | undefined): string[] {
  const messages = (request?.body?.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === 'user').map((m) => String(m.content));
}

const squash = (s: string) => s.replace(/\s+/g, '');

const drivers = selectedDrivers();

describe.each(drivers.map((d) => [d.label, d] as const))('platform contract: %s', (_label, driver: PlatformDriver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  const alice = driver.user(0);
  const bob = driver.user(1);
  const stranger = driver.user(2);

  const start = async (dbPath?: string) => {
    gw = await startContractGateway(driver, model, { allowed: [alice, bob], ...(dbPath ? { dbPath } : {}) });
    await driver.waitReady();
    return gw;
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

  it('DM chat: the answer arrives in the DM, formatted, and the model saw the message', async () => {
    await start();
    model.script({ text: 'Hello from **Hermes**' });
    const ref = await driver.dm(alice, 'hi there bot');
    await until('the answer', () => driver.sent().length > 0);
    const [answer] = driver.sent();
    expect(answer?.chatId).toBe(ref.chatId);
    expect(answer?.text).toContain('Hermes');
    expect(answer?.text).not.toContain('**'); // rendered to the platform's format
    expect(userTexts(chatRequests(model)[0])).toEqual(['hi there bot']);
  });

  it.skipIf(driver.group === undefined)(
    'group: silent unless mentioned; a mention is answered in the group without the mention markup',
    async () => {
      const group = driver.group as NonNullable<PlatformDriver['group']>;
      const g = await start();
      await group(alice, 'just chatting among ourselves', { mention: false });
      await settleWithMarker(g, driver, alice);
      expect(chatRequests(model)).toHaveLength(0);
      expect(answers(driver)).toHaveLength(0);
      model.script({ text: 'you called?' });
      const ref = await group(alice, 'what is up', { mention: true });
      await until('the answer', () => answers(driver).length > 0);
      expect(answers(driver)[0]?.chatId).toBe(ref.chatId);
      expect(answers(driver)[0]?.text).toContain('you called?');
      const [text] = userTexts(chatRequests(model)[0]);
      expect(text).toContain('what is up');
      expect(text).not.toMatch(/<@/);
    },
  );

  it('a long answer arrives as several messages within the limit, nothing lost', async () => {
    await start();
    // over 10,000 characters, and at least 2.5 messages where a message takes more (a mail: 20,000)
    const count = Math.max(1_800, Math.ceil((driver.maxMessageLength * 2.5) / 8));
    const words = Array.from({ length: count }, (_, i) => `word${i}`);
    const long = words.reduce((acc, w, i) => acc + w + (i % 12 === 11 ? '\n' : ' '), '');
    expect(long.length).toBeGreaterThan(Math.max(10_000, driver.maxMessageLength * 2));
    model.script({ text: long });
    await driver.dm(alice, 'tell me a lot');
    await until(
      'every chunk',
      () =>
        squash(
          driver
            .sent()
            .map((m) => m.text)
            .join(''),
        ).length >= squash(long).length,
    );
    const sent = driver.sent();
    expect(sent.length).toBeGreaterThan(1);
    for (const m of sent) expect(m.text.length).toBeLessThanOrEqual(driver.maxMessageLength);
    expect(squash(sent.map((m) => m.text).join(''))).toBe(squash(long));
  });

  it('a 429 on send is waited out and the answer delivered exactly once', async () => {
    const g = await start();
    driver.rateLimitNextSend(1_000);
    model.script({ text: 'after the rate limit' });
    const started = Date.now();
    await driver.dm(alice, 'are you rate limited?');
    await until('the answer', () => driver.sent().length > 0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await g.gateway.idle(); // a second send would be this delivery's
    expect(driver.sent().map((m) => m.text)).toEqual([expect.stringContaining('after the rate limit')]);
  });

  it('a redelivered event is processed once', async () => {
    const g = await start();
    model.script({ text: 'only once' });
    const ref = await driver.dm(alice, 'deliver me twice');
    await until('the answer', () => driver.sent().length > 0);
    await ref.redeliver();
    await settleWithMarker(g, driver, alice);
    expect(chatRequests(model)).toHaveLength(1);
    expect(answers(driver)).toHaveLength(1);
  });

  it('a dropped connection reconnects and the next message is answered once', async () => {
    const g = await start();
    const before = driver.connectionCount();
    let maxOpen = driver.openConnections();
    await driver.dropConnection();
    if (before > 0) {
      await until('a new connection', () => {
        maxOpen = Math.max(maxOpen, driver.openConnections());
        return driver.connectionCount() > before && driver.openConnections() > 0;
      });
    }
    await driver.waitReady();
    model.script({ text: 'back again' });
    await driver.dm(alice, 'still there?');
    await until('the answer', () => {
      maxOpen = Math.max(maxOpen, driver.openConnections());
      return driver.sent().length > 0;
    });
    await settleWithMarker(g, driver, alice); // a replayed event would come before it
    expect(answers(driver).map((m) => m.text)).toEqual([expect.stringContaining('back again')]);
    expect(maxOpen).toBeLessThanOrEqual(1);
  });

  it('/new starts a fresh session: the next model request carries no earlier history', async () => {
    await start();
    model.script({ text: 'noted' });
    await driver.dm(alice, 'remember the word pineapple');
    await until('the first answer', () => driver.sent().length > 0);
    await driver.dm(alice, '/new');
    await until('the /new reply', () => driver.sent().length > 1);
    model.script({ text: 'fresh start' });
    await driver.dm(alice, 'what was the word?');
    await until('the second answer', () => driver.sent().length > 2);
    const requests = chatRequests(model);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]?.body?.messages)).not.toContain('pineapple');
  });

  it('pairing: an unknown user gets a pairing code and nothing else; the model is never called', async () => {
    const g = await start();
    const ref = await driver.dm(stranger, 'let me in');
    await until('the pairing reply', () => driver.sent().length > 0);
    await g.gateway.idle(); // anything more would be this message's
    expect(driver.sent()).toHaveLength(1);
    expect(driver.sent()[0]?.chatId).toBe(ref.chatId);
    expect(driver.sent()[0]?.text).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(chatRequests(model)).toHaveLength(0);
  });

  it('restart between accepting and replying: exactly one reply per inbound message', async () => {
    const first = await start();
    model.script({ hang: true }, { hang: true });
    await driver.dm(alice, 'first question');
    await driver.dm(bob, 'second question');
    await until('both turns running', () => chatRequests(model).length === 2);
    await first.stop(); // both turns are cut off before any reply
    expect(driver.sent()).toHaveLength(0);
    model.respond((request) => ({ text: `answer to ${userTexts(request).at(-1) ?? '?'}` }));
    const second = await start(first.dbPath);
    await until('both answers', () => driver.sent().length >= 2);
    await settleWithMarker(second, driver, alice); // a redelivered message would come before it
    expect(
      answers(driver)
        .map((m) => m.text)
        .sort(),
    ).toEqual(['answer to first question', 'answer to second question']);
  });
});
