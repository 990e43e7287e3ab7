// One fire: [SILENT] sends nothing, failures are counted, and the N-th failure in a row pauses the
// job and tells its owner.
import { afterEach, describe, expect, it } from 'vitest';
import type { CronScheduler } from '../../src/surfaces/cron/scheduler.js';
import { HOUR, harness, settle, T0 } from './harness.js';

let running: CronScheduler[] = [];
afterEach(async () => {
  for (const s of running) await s.stop();
  running = [];
});

async function fireAt(h: ReturnType<typeof harness>, s: CronScheduler, t: number): Promise<void> {
  h.clock.t = t;
  s.poke();
  await s.idle();
  await settle();
}

describe('a cron fire', () => {
  it('an answer of exactly [SILENT] posts nothing and counts as a success', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h' });
    const s = h.scheduler();
    running.push(s);
    await s.start();
    h.turns.push({ status: 'completed', text: '  [SILENT]\n' });
    await fireAt(h, s, T0 + HOUR);
    expect(h.sent).toEqual([]);
    expect(h.store.cronJobs.get(id)).toMatchObject({ lastStatus: 'silent', failures: 0 });
    expect(h.events.at(-1)?.context).toMatchObject({ status: 'silent', response: '[SILENT]' });
  });

  it('after cron.max_failures failures in a row the job is paused and its delivery chat told why', async () => {
    const h = harness({ maxFailures: 2 });
    const id = await h.add({ schedule: 'every 1h', name: 'disk check' });
    const s = h.scheduler();
    running.push(s);
    await s.start();
    h.turns.push({ status: 'failed', text: null, error: 'the model endpoint answered 500' });
    await fireAt(h, s, T0 + HOUR);
    expect(h.store.cronJobs.get(id)).toMatchObject({ state: 'active', failures: 1, lastStatus: 'failed' });
    h.turns.push({ status: 'completed', text: 'ok' }); // a success resets the count
    await fireAt(h, s, T0 + 2 * HOUR);
    expect(h.store.cronJobs.get(id)?.failures).toBe(0);
    h.turns.push({ status: 'failed', text: null, error: 'boom 1' }, { status: 'failed', text: null, error: 'boom 2' });
    await fireAt(h, s, T0 + 3 * HOUR);
    await fireAt(h, s, T0 + 4 * HOUR);
    const job = h.store.cronJobs.get(id);
    expect(job).toMatchObject({ state: 'paused', failures: 2, lastError: 'boom 2' });
    const notice = h.sent.at(-1);
    expect(notice?.target).toEqual({ platform: 'telegram', chatId: '-100' });
    expect(notice?.text).toContain(`"disk check" (${id}) was paused after 2 failed runs in a row`);
    expect(notice?.text).toContain('boom 2');
    await fireAt(h, s, T0 + 5 * HOUR);
    expect(h.prompts).toHaveLength(4); // paused: no fifth run
  });

  it("a one-shot's failure is told at once (it has no next run); it is not paused", async () => {
    const h = harness();
    const id = await h.add({ schedule: 'in 5m', name: 'stretch', deliver: 'telegram:42', owner: 'telegram:42' });
    const s = h.scheduler();
    running.push(s);
    await s.start();
    h.turns.push({ status: 'failed', text: null, error: 'the model endpoint answered 500' });
    await fireAt(h, s, T0 + HOUR);
    expect(h.sent).toEqual([
      {
        target: { platform: 'telegram', chatId: '42' },
        text: `⚠️ Scheduled job "stretch" (${id}) failed: the model endpoint answered 500`,
      },
    ]);
    expect(h.store.cronJobs.get(id)).toMatchObject({ state: 'done', lastStatus: 'failed' });
  });

  it('a job delivering nowhere tells the chat that created it', async () => {
    const h = harness({ maxFailures: 1 });
    const id = await h.add({ schedule: 'every 1h', deliver: 'none', owner: 'telegram:42' });
    const s = h.scheduler();
    running.push(s);
    await s.start();
    h.turns.push({ status: 'failed', text: null, error: 'nope' });
    await fireAt(h, s, T0 + HOUR);
    expect(h.store.cronJobs.get(id)?.state).toBe('paused');
    expect(h.sent.map((m) => m.target)).toEqual([{ platform: 'telegram', chatId: '42' }]);
  });

  it('a target that cannot be reached is a failure naming it', async () => {
    const h = harness({ env: { TELEGRAM_HOME_CHANNEL: '' } });
    const id = await h.add({ schedule: 'every 1h', deliver: 'discord' });
    const s = h.scheduler();
    running.push(s);
    await s.start();
    await fireAt(h, s, T0 + HOUR);
    expect(h.store.cronJobs.get(id)?.lastError).toBe(
      'cannot deliver to discord: platform "discord" is not connected (connected: telegram)',
    );
  });
});
