// A job's pre-run script and upstream job (migration 20) on both backends: stored at add, changed
// by update (null clears), and the upstream's latest answer found past later fires without one.
import type { NewCronJob } from '@hermes/store';
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

const job = (over: Partial<NewCronJob> = {}): NewCronJob => ({
  name: 'triage',
  schedule: 'every 1h',
  kind: 'every',
  expr: '3600000',
  prompt: 'rank the stories',
  toolsets: null,
  deliver: 'none',
  owner: 'cli',
  timezone: 'UTC',
  nextRunAt: 1_700_000_060_000,
  ...over,
});

forEachBackend((open) => {
  it('cron: script and context_from stored, updated field by field, cleared with null', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const a = await store.cronJobs.add(job({ name: 'collect' }));
    expect(a).toMatchObject({ script: null, contextFrom: null });
    const b = await store.cronJobs.add(job({ script: 'feeds.sh', contextFrom: a.id }));
    expect(b).toMatchObject({ script: 'feeds.sh', contextFrom: a.id });
    clock.t += 10;
    expect(await store.cronJobs.update(b.id, { name: 'ranker', toolsets: ['web'] })).toBe(true);
    expect(await store.cronJobs.get(b.id)).toMatchObject({
      name: 'ranker',
      toolsets: ['web'],
      prompt: 'rank the stories',
      script: 'feeds.sh',
      contextFrom: a.id,
      updatedAt: clock.t,
    });
    expect(await store.cronJobs.update(b.id, { script: null, contextFrom: null, toolsets: null, prompt: 'p2' })).toBe(
      true,
    );
    expect(await store.cronJobs.get(b.id)).toMatchObject({
      script: null,
      contextFrom: null,
      toolsets: null,
      prompt: 'p2',
    });
    expect(await store.cronJobs.update('nope', { name: 'x' })).toBe(false);
  });

  it('cron: latestAnswer is the newest fire with an answer, whatever came after it without one', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const a = await store.cronJobs.add(job());
    expect(await store.cronJobs.latestAnswer(a.id)).toBeUndefined();
    const manual = { nextRunAt: null, state: 'active' as const, manual: true };
    const first = await store.cronJobs.claimFire(a.id, 1_000, manual);
    const second = await store.cronJobs.claimFire(a.id, 2_000, manual);
    const third = await store.cronJobs.claimFire(a.id, 3_000, manual);
    if (!first || !second || !third) throw new Error('unreachable');
    await store.cronJobs.finishFire(first.fireId, 'delivered', { answer: 'old' });
    await store.cronJobs.finishFire(second.fireId, 'delivered', { answer: 'newest' });
    await store.cronJobs.finishFire(third.fireId, 'failed', { error: 'model down' });
    expect(await store.cronJobs.latestAnswer(a.id)).toMatchObject({ answer: 'newest', slotTime: 2_000 });
  });
});
