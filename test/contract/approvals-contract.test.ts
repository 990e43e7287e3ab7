// Approvals in the chat and split pastes, one contract for every platform: the real SDK against
// its fake, a real in-process gateway. Native buttons where the driver has them (Telegram inline
// keyboard, Discord components, Slack Block Kit), `/approve` / `/deny` everywhere.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTerminalTool } from '@hermes/agent';
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
const lastContent = (request: RecordedRequest | undefined): string =>
  String(((request?.body?.messages ?? []) as { content: unknown }[]).at(-1)?.content ?? '');

function victim(): { target: string; command: string } {
  const target = join(mkdtempSync(join(tmpdir(), 'hermes-contract-approve-')), 'victim');
  mkdirSync(target);
  writeFileSync(join(target, 'keep.txt'), 'x');
  return { target, command: `rm -rf ${target}/*` };
}

describe.each(
  selectedDrivers().map((d) => [d.label, d] as const),
)('approvals and batching: %s', (_l, driver: PlatformDriver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  const alice = driver.user(0);
  const bob = driver.user(1);

  const start = async (options: { batchMs?: number } = {}) => {
    gw = await startContractGateway(driver, model, { allowed: [alice, bob], ...options });
    gw.tools.register(createTerminalTool({ cwd: tmpdir() }));
    await driver.waitReady();
    return gw;
  };
  const textSent = (text: string) => driver.sent().some((m) => m.text.includes(text));

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

  // in a group, with all four answers as buttons: WhatsApp (no groups, three buttons) tests its own in test/e2e
  it.skipIf(driver.pressButton === undefined || driver.group === undefined)(
    'buttons: another user of the group is told "not yours"; the asker\'s "Allow once" runs it; the buttons go',
    async () => {
      await start();
      const { target, command } = victim();
      model.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'cleaned up' });
      await driver.group?.(alice, 'clean up the victim folder', { mention: true });
      const prompts = () => driver.buttonPrompts?.() ?? [];
      await until('the approval prompt', () => prompts().length > 0);
      const prompt = prompts()[0] as ButtonPrompt;
      expect(prompt.labels).toEqual(['Allow once', 'Allow this session', 'Always allow', 'Deny']);
      expect(prompt.text).toContain(command);
      const press = driver.pressButton as NonNullable<PlatformDriver['pressButton']>;
      expect(await press(bob, prompt.id, 'Allow once')).toMatch(/^Not yours/);
      expect(existsSync(join(target, 'keep.txt'))).toBe(true);
      expect(await press(alice, prompt.id, 'Allow once')).toBe('Approved once.');
      await until('the answer', () => textSent('cleaned up'));
      expect(existsSync(join(target, 'keep.txt'))).toBe(false);
      expect(JSON.parse(lastContent(chatRequests(model)[1]))).toMatchObject({ exit_code: 0 });
      await until('the buttons removed', () => prompts()[0]?.open === false);
      expect(prompts()[0]?.text).toBe('Approved once.');
    },
  );

  it('/deny typed in the chat denies the waiting command; the chat goes on', async () => {
    await start();
    const { target, command } = victim();
    model.script(
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { text: 'left it alone' },
      { text: 'still here' },
    );
    await driver.dm(alice, 'clean up');
    await until('the approval prompt', () => textSent('Approval needed') || (driver.buttonPrompts?.().length ?? 0) > 0);
    await driver.dm(alice, '/deny');
    await until('the answer', () => textSent('left it alone'));
    expect(textSent('Denied.')).toBe(true);
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    expect(JSON.parse(lastContent(chatRequests(model)[1]))).toMatchObject({ denied: true });
    await driver.dm(alice, 'hello?');
    await until('the next answer', () => textSent('still here'));
  });

  it.skipIf(driver.noCutPastes === true)(
    'a paste split into several messages within gateway.batch_ms is one turn, answered once',
    async () => {
      await start({ batchMs: 400 });
      model.script({ text: 'got all three' });
      // a part as long as the app cuts (the limit of Telegram, Discord and Slack is 2,000 to 4,096)
      const partOne = `part one ${'x'.repeat(3_900)}`;
      await driver.dm(alice, partOne);
      await driver.dm(alice, 'part two');
      await driver.dm(alice, 'part three');
      await until('the answer', () => textSent('got all three'));
      await gw?.gateway.idle();
      expect(chatRequests(model)).toHaveLength(1);
      expect(lastContent(chatRequests(model)[0])).toBe(`${partOne}\npart two\npart three`);
      expect(driver.sent().filter((m) => m.text.includes('got all three'))).toHaveLength(1);
    },
  );
});
