import type { NewCronJob } from '@hermes/store';
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

const job = (over: Partial<NewCronJob> = {}): NewCronJob => ({
  name: 'news',
  schedule: 'every 30m',
  kind: 'every',
  expr: '1800000',
  prompt: 'the news',
  toolsets: ['web'],
  deliver: 'home',
  owner: 'cli',
  timezone: 'UTC',
  nextRunAt: 1_700_000_060_000,
  ...over,
});

forEachBackend((open) => {
  it('cron: add, list by owner, pause and resume, request a run, due and next due, remove', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const a = await store.cronJobs.add(job());
    expect(a).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      toolsets: ['web'],
      state: 'active',
      failures: 0,
      createdAt: clock.t,
      runRequestedAt: null,
    });
    clock.t += 1;
    const b = await store.cronJobs.add(job({ owner: 'telegram:42', toolsets: null, nextRunAt: null, kind: 'once' }));
    expect((await store.cronJobs.list()).map((j) => j.id)).toEqual([a.id, b.id]);
    expect((await store.cronJobs.list({ owner: 'telegram:42' })).map((j) => j.id)).toEqual([b.id]);
    expect(await store.cronJobs.nextDue(clock.t)).toBe(1_700_000_060_000);
    expect(await store.cronJobs.due(clock.t)).toEqual([]);
    expect(await store.cronJobs.requestRun(b.id)).toBe(true);
    expect(await store.cronJobs.nextDue(clock.t)).toBe(clock.t);
    expect((await store.cronJobs.due(clock.t)).map((j) => j.id)).toEqual([b.id]);
    expect(await store.cronJobs.setState(a.id, 'paused')).toBe(true);
    expect(await store.cronJobs.setState('nope', 'paused')).toBe(false);
    expect(await store.cronJobs.due(1_800_000_000_000)).toHaveLength(1);
    expect(await store.cronJobs.setState(a.id, 'active', 1_700_000_090_000)).toBe(true);
    await store.cronJobs.setNextRun(a.id, 1_700_000_120_000);
    expect((await store.cronJobs.get(a.id))?.nextRunAt).toBe(1_700_000_120_000);
    expect(await store.cronJobs.remove(b.id)).toBe(true);
    expect(await store.cronJobs.remove(b.id)).toBe(false);
    expect(await store.cronJobs.get(b.id)).toBeUndefined();
  });

  it('cron: a slot is claimed once (also when claimed concurrently); fires finish and results count failures', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const a = await store.cronJobs.add(job());
    const next = { nextRunAt: 1_700_000_120_000, state: 'active' as const, manual: false };
    const claims = await Promise.all([1, 2, 3].map(() => store.cronJobs.claimFire(a.id, 1_700_000_060_000, next)));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    const fire = won[0];
    if (!fire) throw new Error('unreachable');
    expect((await store.inbox.get(fire.inboxId))?.messageKey).toBe(`${a.id}@1700000060000`);
    expect((await store.cronJobs.get(a.id))?.nextRunAt).toBe(1_700_000_120_000);
    expect((await store.cronJobs.unfinishedFires()).map((f) => f.id)).toEqual([fire.fireId]);
    await store.cronJobs.finishFire(fire.fireId, 'answered', { answer: 'headlines' });
    clock.t += 5;
    await store.cronJobs.finishFire(fire.fireId, 'delivered');
    const [done] = await store.cronJobs.fires(a.id);
    expect(done).toMatchObject({ status: 'delivered', answer: 'headlines', finishedAt: clock.t, error: null });
    expect(await store.cronJobs.unfinishedFires()).toEqual([]);
    expect(await store.cronJobs.recordResult(a.id, 'failed', 'boom')).toBe(1);
    expect(await store.cronJobs.recordResult(a.id, 'failed', 'boom')).toBe(2);
    expect(await store.cronJobs.recordResult(a.id, 'interrupted', null)).toBe(2);
    expect(await store.cronJobs.recordResult(a.id, 'delivered', null)).toBe(0);
    expect((await store.cronJobs.get(a.id))?.lastStatus).toBe('delivered');
    const manual = await store.cronJobs.claimFire(a.id, clock.t, { nextRunAt: null, state: 'active', manual: true });
    expect(manual).not.toBeNull();
    expect((await store.cronJobs.get(a.id))?.lastRunAt).toBe(clock.t);
  });
});
