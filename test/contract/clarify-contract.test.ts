// The clarify tool's question on every platform with buttons (the real SDK against its fake, a real
// in-process gateway): one button per choice (Telegram inline keyboard, Discord components, Slack
// Block Kit); another user's press in the group is "not yours"; the asker's press is the tool's
// result and closes the buttons; the asker's next message in the group (not addressed to the bot;
// on Slack, in the thread the question is in) answers a question too, and starts no turn of its own.
import { createClarifyTool } from '@hermes/agent';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';
import type { ButtonPrompt, PlatformDriver } from './driver.js';
import { selectedDrivers } from './drivers/index.js';
import { type ContractGateway, startContractGateway } from './harness.js';
import { eventually } from './recorders.js';

const until = (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> =>
  eventually(check, timeoutMs, what);

const chatRequests = (model: FakeOpenAI): RecordedRequest[] =>
  model.requests.filter((r) => r.path.endsWith('/chat/completions'));
const toolResult = (request: RecordedRequest | undefined): unknown =>
  JSON.parse(String(((request?.body?.messages ?? []) as { content: unknown }[]).at(-1)?.content ?? '{}'));

describe.each(
  selectedDrivers()
    // asked in a group: a platform without groups (WhatsApp) is left out
    .filter((d) => d.pressButton !== undefined && d.group !== undefined)
    .map((d) => [d.label, d] as const),
)('clarify questions: %s', (_l, driver: PlatformDriver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  const alice = driver.user(0);
  const bob = driver.user(1);

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

  it("a button per choice: another user's press is refused, the asker's answers; a typed reply answers too", async () => {
    gw = await startContractGateway(driver, model, { allowed: [alice, bob], tools: () => [createClarifyTool()] });
    await driver.waitReady();
    const prompts = () => driver.buttonPrompts?.() ?? [];
    const press = driver.pressButton as NonNullable<PlatformDriver['pressButton']>;
    const group = driver.group as NonNullable<PlatformDriver['group']>;
    const ask = { question: 'Which city?', choices: ['Rome', 'Paris'] };
    model.script({ toolCalls: [{ name: 'clarify', arguments: ask }] }, { text: 'city chosen' });
    await group(alice, 'plan a trip', { mention: true });
    await until('the question', () => prompts().length > 0);
    const prompt = prompts()[0] as ButtonPrompt;
    expect(prompt.labels).toEqual(['Rome', 'Paris']);
    expect(prompt.text).toContain('Which city?');
    expect(await press(bob, prompt.id, 'Paris')).toMatch(/^Not yours/);
    expect(await press(alice, prompt.id, 'Paris')).toBe('Answered: Paris');
    await until('the answer', () => driver.sent().some((m) => m.text.includes('city chosen')));
    expect(toolResult(chatRequests(model)[1])).toEqual({ answer: 'Paris', choice: 1, via: 'button' });
    await until('the buttons removed', () => (driver.buttonPrompts?.()[0] as ButtonPrompt).open === false);

    model.script(
      { toolCalls: [{ name: 'clarify', arguments: { question: 'Budget?', choices: ['Low', 'High'] } }] },
      { text: 'budget noted' },
    );
    const asking = await group(alice, 'and the budget', { mention: true });
    await until('the second question', () => prompts().length > 1);
    // where the bot answers a group message in its thread (Slack), the reply goes there
    if (driver.threadReply) await driver.threadReply(alice, 'High', asking);
    else await group(alice, 'High', { mention: false });
    await until('the second answer', () => driver.sent().some((m) => m.text.includes('budget noted')));
    expect(toolResult(chatRequests(model)[3])).toEqual({ answer: 'High', choice: 1, via: 'text' });
    expect(chatRequests(model)).toHaveLength(4);
  });
});
