import { describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';

describe('child sessions', () => {
  it('a child is a session linked to its parent, with its transcript, status and duration', () => {
    let t = 1_000;
    const store = openStore(':memory:', { now: () => t, redact: (s) => s.replaceAll('sk-secret', '[REDACTED]') });
    const parent = store.sessions.create({ key: 'telegram:1:dm', platform: 'telegram' });
    const a = store.childSessions.start({
      parentId: parent.id,
      platform: 'telegram',
      taskIndex: 0,
      goal: 'use sk-secret',
    });
    const b = store.childSessions.start({
      parentId: parent.id,
      platform: 'telegram',
      taskIndex: 1,
      goal: 'B',
      model: 'm',
    });
    store.transcripts.append(a, [
      { role: 'user', content: 'use sk-secret' },
      { role: 'assistant', content: 'done' },
    ]);
    t = 2_000;
    store.childSessions.finish(a, 'completed', 812.4);
    expect(store.childSessions.listByParent(parent.id)).toEqual([
      {
        childId: a,
        parentId: parent.id,
        taskIndex: 0,
        role: null,
        goal: 'use [REDACTED]',
        status: 'completed',
        durationMs: 812,
        createdAt: 1_000,
        messages: 2,
      },
      expect.objectContaining({ childId: b, taskIndex: 1, status: null, durationMs: null, messages: 0 }),
    ]);
    const child = store.sessions.get(a);
    expect(child).toMatchObject({
      sessionKey: `delegate:${parent.id}`,
      endedAt: 2_000,
      endReason: 'delegate completed',
    });
    // a child never becomes the active session of its parent's chat
    expect(store.sessions.activeByKey('telegram:1:dm')?.id).toBe(parent.id);
    store.close();
  });

  it('the parent need not be stored, and pruning a child removes its link', () => {
    let t = 1_000;
    const store = openStore(':memory:', { now: () => t });
    const child = store.childSessions.start({ parentId: 'api-stateless', platform: 'api', taskIndex: 0, goal: 'g' });
    store.childSessions.finish(child, 'interrupted', 5);
    t = 10_000;
    store.pruner.prune(5_000, { dryRun: false });
    expect(store.childSessions.listByParent('api-stateless')).toEqual([]);
    expect(store.sessions.get(child)).toBeUndefined();
    store.close();
  });
});
