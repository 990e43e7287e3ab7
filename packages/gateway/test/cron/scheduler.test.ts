// The scheduler on a real state.db: each slot claimed once (also across restarts), catch-up after
// downtime, `hermes cron run`, and the fires' start/end events.
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { type CronScheduler, MAX_CATCH_UP_RUNS } from '../../src/surfaces/cron/scheduler.js';
import { type Harness, HOUR, harness, MIN, settle, T0 } from './harness.js';

let running: CronScheduler[] = [];
afterEach(async () => {
  for (const s of running) await s.stop();
  running = [];
});
async function startAndRun(h: Harness, catchUp?: 'once' | 'all' | 'none'): Promise<CronScheduler> {
  const s = h.scheduler(catchUp);
  running.push(s);
  await s.start();
  await s.idle();
  await settle();
  return s;
}

describe('the cron scheduler', () => {
  it('fires a due job once per slot and moves to its next slot', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h', prompt: 'check the disk' });
    const s = await startAndRun(h);
    expect(h.prompts).toEqual([]); // not due yet
    h.clock.t = T0 + HOUR;
    s.poke();
    await s.idle();
    await settle();
    expect(h.prompts).toEqual(['check the disk']);
    expect(h.sent).toEqual([
      { target: { platform: 'telegram', chatId: '-100', inboxId: expect.any(Number) }, text: 'done' },
    ]);
    expect(h.store.cronJobs.get(id)).toMatchObject({ nextRunAt: T0 + 2 * HOUR, lastStatus: 'delivered', failures: 0 });
    expect(h.events.map((e) => e.type)).toEqual(['cron:start', 'cron:end']);
    expect(h.events[1]?.context).toMatchObject({ job_id: id, status: 'delivered', response: 'done' });
    s.poke();
    await s.idle();
    expect(h.prompts).toHaveLength(1);
  });

  it('catch_up once (default): a gateway stopped over three slots runs the job once on start, and not again after a restart', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h' });
    h.clock.t = T0 + 3 * HOUR + 10 * MIN; // stopped over T0+1h, +2h, +3h
    await startAndRun(h);
    expect(h.prompts).toHaveLength(1);
    expect(h.store.cronJobs.fires(id).map((f) => f.slotTime)).toEqual([T0 + HOUR]);
    expect(h.store.cronJobs.get(id)?.nextRunAt).toBe(T0 + 4 * HOUR);
    await startAndRun(h); // a second start at the same time: nothing is due
    expect(h.prompts).toHaveLength(1);
  });

  it('catch_up all runs every missed slot, one after another; none skips to the next slot', async () => {
    const all = harness();
    const a = await all.add({ schedule: 'every 1h' });
    all.clock.t = T0 + 3 * HOUR + 10 * MIN;
    await startAndRun(all, 'all');
    await waitFor(() => all.prompts.length >= 3, { what: 'the three missed slots run' });
    await running[0]?.idle();
    expect(
      all.store.cronJobs
        .fires(a)
        .map((f) => f.slotTime)
        .sort(),
    ).toEqual([T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR]);

    const many = harness();
    const m = await many.add({ schedule: 'every 1h' });
    many.clock.t = T0 + 100 * HOUR + 10 * MIN; // 100 slots missed: the latest MAX_CATCH_UP_RUNS run
    await startAndRun(many, 'all');
    await running.at(-1)?.idle();
    const slots = many.store.cronJobs.fires(m, 1000).map((f) => f.slotTime);
    expect(slots).toHaveLength(MAX_CATCH_UP_RUNS);
    expect(Math.min(...slots)).toBe(T0 + (100 - MAX_CATCH_UP_RUNS + 1) * HOUR);

    const none = harness();
    const n = await none.add({ schedule: 'every 1h' });
    none.clock.t = T0 + 3 * HOUR + 10 * MIN;
    await startAndRun(none, 'none');
    expect(none.prompts).toEqual([]);
    expect(none.store.cronJobs.get(n)?.nextRunAt).toBe(T0 + 4 * HOUR);
  });

  it('a one-shot whose time passed while stopped runs once, whatever catch_up says, then is done', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'in 2 minutes', prompt: 'stretch' });
    h.clock.t = T0 + HOUR;
    await startAndRun(h, 'none');
    expect(h.prompts).toEqual(['stretch']);
    expect(h.store.cronJobs.get(id)).toMatchObject({ state: 'done', nextRunAt: null });
  });

  it('a slot claimed before is never run again (fires are unique per job and slot)', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h' });
    const next = { nextRunAt: T0 + 2 * HOUR, state: 'active' as const, manual: false };
    expect(h.store.cronJobs.claimFire(id, T0 + HOUR, next)).not.toBeNull();
    expect(h.store.cronJobs.claimFire(id, T0 + HOUR, next)).toBeNull();
  });

  it('a fire cut off by a stop is marked interrupted at the next start, not run again; an answered one is delivered', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h' });
    const next = { nextRunAt: T0 + 3 * HOUR, state: 'active' as const, manual: false };
    const cut = h.store.cronJobs.claimFire(id, T0 + HOUR, next);
    const answered = h.store.cronJobs.claimFire(id, T0 + 2 * HOUR, next);
    if (!cut || !answered) throw new Error('not claimed');
    h.store.cronJobs.finishFire(answered.fireId, 'answered', { answer: 'disk 93% full' });
    h.clock.t = T0 + 2 * HOUR + MIN;
    await startAndRun(h);
    expect(h.prompts).toEqual([]);
    expect(h.sent).toEqual([
      { target: { platform: 'telegram', chatId: '-100', inboxId: answered.inboxId }, text: 'disk 93% full' },
    ]);
    const statuses = h.store.cronJobs.fires(id).map((f) => [f.slotTime, f.status]);
    expect(statuses).toEqual([
      [T0 + 2 * HOUR, 'delivered'],
      [T0 + HOUR, 'interrupted'],
    ]);
  });

  it('hermes cron run: a requested run fires once at the next check and keeps the schedule', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1d' });
    const s = await startAndRun(h);
    h.clock.t = T0 + 5 * MIN;
    expect(h.store.cronJobs.requestRun(id)).toBe(true);
    s.poke();
    await s.idle();
    expect(h.prompts).toHaveLength(1);
    expect(h.store.cronJobs.get(id)).toMatchObject({ runRequestedAt: null, nextRunAt: T0 + 24 * HOUR });
    s.poke();
    await s.idle();
    expect(h.prompts).toHaveLength(1);
  });

  it('a scheduled fire also answers a pending run request (one run, not two)', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h' });
    const s = await startAndRun(h);
    h.clock.t = T0 + HOUR;
    h.store.cronJobs.requestRun(id);
    s.poke();
    await s.idle();
    s.poke();
    await s.idle();
    expect(h.prompts).toHaveLength(1);
    expect(h.store.cronJobs.get(id)?.runRequestedAt).toBeNull();
  });

  it('a row it cannot read (edited by hand) is paused with the reason; the other jobs still run', async () => {
    const h = harness();
    const bad = await h.add({ schedule: '0 8 * * *', prompt: 'bad' });
    const good = await h.add({ schedule: 'every 1h', prompt: 'good' });
    h.store.db.prepare("UPDATE cron_jobs SET expr = 'not a cron', toolsets = '{oops' WHERE id = ?").run(bad);
    h.store.db.prepare('UPDATE cron_jobs SET next_run_at = ? WHERE id = ?').run(T0 + MIN, bad);
    h.clock.t = T0 + HOUR;
    await startAndRun(h);
    expect(h.prompts).toEqual(['good']);
    expect(h.store.cronJobs.get(bad)).toMatchObject({ state: 'paused', toolsets: [], lastStatus: 'failed' });
    expect(h.store.cronJobs.get(bad)?.lastError).toMatch(/^cannot schedule: /);
    expect(h.store.cronJobs.get(good)?.lastStatus).toBe('delivered');
  });

  it('a paused job does not fire', async () => {
    const h = harness();
    const id = await h.add({ schedule: 'every 1h' });
    h.store.cronJobs.setState(id, 'paused');
    h.clock.t = T0 + 2 * HOUR;
    await startAndRun(h);
    expect(h.prompts).toEqual([]);
  });
});
