// The scheduler, its fires and the `cronjob` tool on a jobs repository that answers with Promises
// (PostgreSQL's shape; here the SQLite repository behind asyncMethods): the same slots fire once,
// catch-up and recovery hold, and pokes while a tick awaits the repository do not fire twice.
import { silentLogger, type ToolContext } from '@hermes/protocol';
import { asyncMethods } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { createCronjobTool } from '../../src/surfaces/cron/cronjob-tool.js';
import type { CronScheduler } from '../../src/surfaces/cron/scheduler.js';
import { HOUR, harness, MIN, settle, T0 } from './harness.js';

let running: CronScheduler[] = [];
afterEach(async () => {
  for (const s of running) await s.stop();
  running = [];
});

describe('the cron scheduler on an async jobs repository', () => {
  it('fires a due job once per slot, however often it is poked, and moves to its next slot', async () => {
    const h = harness({ asyncJobs: true });
    const id = await h.add({ schedule: 'every 1h', prompt: 'check the disk' });
    const s = h.scheduler();
    running.push(s);
    await s.start();
    await s.idle();
    expect(h.prompts).toEqual([]);
    h.clock.t = T0 + HOUR;
    s.poke();
    s.poke();
    s.poke();
    await s.idle();
    await settle();
    expect(h.prompts).toEqual(['check the disk']);
    expect(h.sent.map((m) => m.text)).toEqual(['done']);
    expect(h.store.cronJobs.get(id)).toMatchObject({ nextRunAt: T0 + 2 * HOUR, lastStatus: 'delivered', failures: 0 });
    expect(h.store.cronJobs.fires(id).map((f) => f.slotTime)).toEqual([T0 + HOUR]);
  });

  it('catch-up once after downtime, a failure counted, and a restart does not run the slot again', async () => {
    const h = harness({ asyncJobs: true, maxFailures: 5 });
    const id = await h.add({ schedule: 'every 1h' });
    h.turns.push({ status: 'failed', text: null, error: 'model down' });
    h.clock.t = T0 + 3 * HOUR + 10 * MIN;
    const first = h.scheduler();
    running.push(first);
    await first.start();
    await first.idle();
    await settle();
    expect(h.prompts).toHaveLength(1);
    expect(h.store.cronJobs.get(id)).toMatchObject({ lastStatus: 'failed', failures: 1, nextRunAt: T0 + 4 * HOUR });
    await first.stop();
    const again = h.scheduler();
    running.push(again);
    await again.start();
    await again.idle();
    expect(h.prompts).toHaveLength(1);
  });

  it('the cronjob tool creates, lists and pauses through the async repository', async () => {
    const h = harness({ asyncJobs: true });
    const tool = createCronjobTool({
      jobs: asyncMethods(h.store.cronJobs),
      originOf: () => ({ platform: 'telegram', chatId: '42' }),
      checkTarget: () => 'unreachable',
      timezone: () => 'UTC',
      now: () => h.clock.t,
      changed: () => undefined,
    });
    const call = async (args: Record<string, unknown>) =>
      (await tool.handler(args, { sessionId: 's', logger: silentLogger } as unknown as ToolContext)) as Record<
        string,
        unknown
      >;
    const created = (await call({ action: 'create', schedule: 'every 1h', prompt: 'ping' })) as {
      created: { id: string; owner: string };
    };
    expect(created.created.owner).toBe('telegram:42');
    expect(((await call({ action: 'list' })) as { jobs: unknown[] }).jobs).toHaveLength(1);
    expect(await call({ action: 'pause', job_id: created.created.id })).toMatchObject({ job: { state: 'paused' } });
    expect(h.store.cronJobs.get(created.created.id)?.state).toBe('paused');
  });
});
