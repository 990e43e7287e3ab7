// A cron job the model makes from a chat is announced there with a *Cancel job* button on every
// platform with buttons (the real SDK against its fake, a real in-process gateway with its cron
// service): another user's press is refused and the job stays; its creator's press removes it;
// an admin may cancel a job someone else made.
import { createCronService } from '@hermes/gateway';
import { silentLogger } from '@hermes/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import type { ButtonPrompt, PlatformDriver } from './driver.js';
import { selectedDrivers } from './drivers/index.js';
import { type ContractGateway, startContractGateway } from './harness.js';
import { eventually } from './recorders.js';

const until = (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> =>
  eventually(check, timeoutMs, what);

describe.each(
  selectedDrivers()
    .filter((d) => d.pressButton !== undefined)
    .map((d) => [d.label, d] as const),
)("a model-made cron job's Cancel button: %s", (_l, driver: PlatformDriver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  // the first allowed user is the owner, so admin; the others are users
  const admin = driver.user(0);
  const bob = driver.user(1);
  const carol = driver.user(2);

  const start = async () => {
    gw = await startContractGateway(driver, model, { allowed: [admin, bob, carol] });
    const cron = createCronService({
      gateway: gw.gateway,
      jobs: gw.store.cronJobs,
      env: {},
      settings: { timezone: 'UTC', catchUp: 'once', maxFailures: 3 },
      clock: { now: () => Date.now(), realDelay: (ms) => ms },
      logger: silentLogger,
    });
    gw.tools.register(cron.tool);
    await driver.waitReady();
    return gw;
  };
  /** `user` asks the model for a reminder; resolves with the announcement's button prompt and job id */
  const scheduled = async (user: typeof bob, name: string): Promise<{ prompt: ButtonPrompt; id: string }> => {
    const before = driver.buttonPrompts?.().length ?? 0;
    model.script(
      {
        toolCalls: [
          { name: 'cronjob', arguments: { action: 'create', schedule: 'every 1h', prompt: 'Stretch.', name } },
        ],
      },
      { text: 'scheduled' },
    );
    await driver.dm(user, `remind me hourly (${name})`);
    await until('the announcement', () => (driver.buttonPrompts?.().length ?? 0) > before);
    const prompt = driver.buttonPrompts?.()[before] as ButtonPrompt;
    const id = /id ([0-9a-f]{8})\./.exec(prompt.text)?.[1] ?? '';
    return { prompt, id };
  };
  const press = (user: typeof bob, prompt: ButtonPrompt) =>
    (driver.pressButton as NonNullable<PlatformDriver['pressButton']>)(user, prompt.id, 'Cancel job');

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

  it('another user is refused and the job stays; its creator cancels it; an admin cancels a job bob made', async () => {
    const g = await start();
    const { prompt, id } = await scheduled(bob, 'stretch');
    expect(prompt.labels).toEqual(['Cancel job']);
    expect(prompt.text).toContain(`The assistant scheduled a job here: "stretch" (every 1h`);
    expect(g.store.cronJobs.get(id)?.creator).toBe(`${driver.platform}:${bob.id}`);

    expect(await press(carol, prompt)).toBe('Only whoever asked for this job, or an admin, can cancel it.');
    expect(g.store.cronJobs.get(id)).toBeDefined();
    expect(await press(bob, prompt)).toBe(`Cancelled job "stretch" (${id}).`);
    expect(g.store.cronJobs.get(id)).toBeUndefined();
    expect(await press(bob, prompt)).toBe(`Job ${id} is gone already.`);

    const second = await scheduled(bob, 'water');
    expect(await press(admin, second.prompt)).toBe(`Cancelled job "water" (${second.id}).`);
    expect(g.store.cronJobs.get(second.id)).toBeUndefined();
  });
});
