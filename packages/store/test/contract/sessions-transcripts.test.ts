import type { ChatMessage } from '@hermes/protocol';
import { MIGRATIONS } from '@hermes/store';
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

const turn: ChatMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'what is 2+2?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'calc', arguments: '{"x":"2+2"}' } }],
  },
  { role: 'tool', content: '4', tool_call_id: 'call_1', name: 'calc' },
  { role: 'tool', content: '4 again', tool_call_id: 'call_1' },
  { role: 'assistant', content: 'It is 4. ünïcödé ✓' },
];

forEachBackend((open) => {
  it('is migrated to the newest schema version', async () => {
    const store = await open();
    expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
  });

  it('creates, finds the active session of a key (latest wins a tie), ends, touches and lists sessions', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const a = await store.sessions.create({ key: 'telegram:dm:1', platform: 'telegram', model: 'm', title: 't' });
    expect(a).toEqual({
      id: expect.stringMatching(/^sess_[0-9a-f]{16}$/),
      sessionKey: 'telegram:dm:1',
      platform: 'telegram',
      model: 'm',
      title: 't',
      createdAt: clock.t,
      updatedAt: clock.t,
      endedAt: null,
      endReason: null,
      userKey: null,
    });
    const b = await store.sessions.create({ key: 'telegram:dm:1', platform: 'telegram', id: 'sess_b' });
    expect((await store.sessions.activeByKey('telegram:dm:1'))?.id).toBe('sess_b');
    await expect(store.sessions.create({ key: 'x', platform: 'x', id: 'sess_b' })).rejects.toThrow(
      /session id sess_b already exists/,
    );
    clock.t += 1000;
    expect(await store.sessions.end(b.id, 'reset')).toBe(true);
    expect(await store.sessions.end(b.id, 'reset')).toBe(false);
    expect((await store.sessions.get(b.id))?.endReason).toBe('reset');
    expect((await store.sessions.activeByKey('telegram:dm:1'))?.id).toBe(a.id);
    expect(await store.sessions.touch('nope')).toBe(false);
    clock.t += 1000;
    expect(await store.sessions.touch(a.id)).toBe(true);
    await store.sessions.create({ key: 'discord:1', platform: 'discord', id: 'sess_d' });
    expect((await store.sessions.list({ limit: 10 })).map((s) => s.id)).toEqual(['sess_d', a.id, 'sess_b']);
    expect((await store.sessions.list({ limit: 1, platform: 'telegram' })).map((s) => s.id)).toEqual([a.id]);
    expect(await store.sessions.get('missing')).toBeUndefined();
  });

  it('finds the newest session of a key, ended or not, and the idle active sessions of some platforms, oldest first', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    expect(await store.sessions.latestByKey('telegram:1:dm')).toBeUndefined();
    const old = await store.sessions.create({ key: 'telegram:1:dm', platform: 'telegram', id: 'sess_old' });
    clock.t += 1000;
    await store.sessions.create({ key: 'telegram:2:dm', platform: 'telegram', id: 'sess_t2' });
    await store.sessions.create({ key: 'cli:chat', platform: 'cli', id: 'sess_cli' });
    await store.sessions.create({ key: 'api:k', platform: 'api', id: 'sess_api' });
    clock.t += 1000;
    await store.sessions.create({ key: 'discord:3', platform: 'discord', id: 'sess_recent' });
    await store.sessions.create({ key: 'telegram:4:dm', platform: 'telegram', id: 'sess_ended' });
    await store.sessions.end('sess_ended', 'idle');
    expect((await store.sessions.latestByKey('telegram:4:dm'))?.endReason).toBe('idle');
    clock.t += 1000;
    const platforms = ['telegram', 'api', 'discord'];
    const idle = async (before: number, limit = 10) =>
      (await store.sessions.idleActive({ before, platforms, limit })).map((s) => s.id);
    // ended sessions and the cli's are never listed; strictly before the cutoff
    expect(await idle(clock.t)).toEqual([old.id, 'sess_t2', 'sess_api', 'sess_recent']);
    expect(await idle(clock.t - 1000)).toEqual([old.id, 'sess_t2', 'sess_api']);
    expect(await idle(clock.t - 2000, 1)).toEqual([old.id]);
    expect(await idle(clock.t - 3000)).toEqual([]);
    expect(await store.sessions.idleActive({ before: clock.t, platforms: [], limit: 10 })).toEqual([]);
    expect((await store.sessions.idleActive({ before: clock.t, platforms, limit: 1 }))[0]).toMatchObject({
      sessionKey: 'telegram:1:dm',
      platform: 'telegram',
      updatedAt: old.updatedAt,
    });
    await store.sessions.create({ key: 'telegram:1:dm', platform: 'telegram', id: 'sess_new' });
    expect((await store.sessions.latestByKey('telegram:1:dm'))?.id).toBe('sess_new');
  });

  it('appends transcripts in order and gives back the exact messages, redacted when asked', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now, redact: (t) => t.replaceAll('sk-secret', '[REDACTED]') });
    const s = await store.sessions.create({ key: 'k', platform: 'cli' });
    expect(await store.transcripts.append(s.id, [])).toBe(0);
    clock.t += 5;
    expect(await store.transcripts.append(s.id, turn)).toBe(turn.length);
    expect(await store.transcripts.append(s.id, [{ role: 'user', content: 'my key is sk-secret' }])).toBe(
      turn.length + 1,
    );
    expect(await store.transcripts.list(s.id)).toEqual([...turn, { role: 'user', content: 'my key is [REDACTED]' }]);
    expect(await store.transcripts.count(s.id)).toBe(turn.length + 1);
    expect((await store.sessions.get(s.id))?.updatedAt).toBe(clock.t);
    await expect(store.transcripts.append('sess_unknown', turn)).rejects.toThrow(/unknown session sess_unknown/);
    expect(await store.transcripts.list('sess_unknown')).toEqual([]);
  });

  it('numbers concurrent appends to one session without a gap or a clash', async () => {
    const store = await open();
    const s = await store.sessions.create({ key: 'k', platform: 'cli' });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.transcripts.append(s.id, [{ role: 'user', content: `m${i}` }])),
    );
    expect([...results].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await store.transcripts.count(s.id)).toBe(8);
  });

  it('links delegate_task children to their parent and counts their messages', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const c0 = await store.childSessions.start({ parentId: 'sess_p', platform: 'cli', taskIndex: 0, goal: 'g0' });
    const c1 = await store.childSessions.start({
      parentId: 'sess_p',
      platform: 'cli',
      taskIndex: 1,
      goal: 'x'.repeat(600),
      role: 'researcher',
      model: 'small',
    });
    await store.transcripts.append(c1, [{ role: 'user', content: 'go' }]);
    await store.childSessions.finish(c1, 'completed', 12.6);
    const children = await store.childSessions.listByParent('sess_p');
    expect(children.map((c) => [c.childId, c.taskIndex, c.status, c.durationMs, c.messages])).toEqual([
      [c0, 0, null, null, 0],
      [c1, 1, 'completed', 13, 1],
    ]);
    expect(children[1]?.goal).toHaveLength(500);
    expect((await store.sessions.get(c1))?.endReason).toBe('delegate completed');
    expect((await store.sessions.get(c1))?.model).toBe('small');
  });

  it('keeps session models, memory snapshots, API responses and context summaries per session', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const s = await store.sessions.create({ key: 'k', platform: 'api' });
    expect(await store.sessionModels.get(s.id)).toBeUndefined();
    await store.sessionModels.set(s.id, 'openrouter', 'a');
    await store.sessionModels.set(s.id, 'openai', 'b');
    expect(await store.sessionModels.get(s.id)).toEqual({
      sessionId: s.id,
      provider: 'openai',
      model: 'b',
      updatedAt: clock.t,
    });
    expect(await store.sessionModels.clear(s.id)).toBe(true);
    expect(await store.sessionModels.clear(s.id)).toBe(false);

    expect(await store.memorySnapshots.put(s.id, 'builtin', 'first')).toBe(true);
    expect(await store.memorySnapshots.put(s.id, 'builtin', 'second')).toBe(false);
    expect(await store.memorySnapshots.put('sess_stateless', 'builtin', 'x')).toBe(false);
    expect(await store.memorySnapshots.get(s.id)).toBe('first');
    expect(await store.memorySnapshots.get('sess_stateless')).toBeUndefined();

    await store.apiResponses.record('resp_1', s.id, 2);
    await store.apiResponses.record('resp_1', s.id, 4);
    expect(await store.apiResponses.get('resp_1')).toEqual({
      id: 'resp_1',
      sessionId: s.id,
      messageCount: 4,
      createdAt: clock.t,
    });
    expect(await store.apiResponses.get('resp_2')).toBeUndefined();

    expect(await store.contextSummaries.latest(s.id)).toBeNull();
    await store.contextSummaries.save(s.id, { headCount: 2, keepFrom: 5, summary: 'older' });
    await store.contextSummaries.save(s.id, { headCount: 2, keepFrom: 9, summary: 'newer' });
    expect(await store.contextSummaries.latest(s.id)).toEqual({ headCount: 2, keepFrom: 9, summary: 'newer' });
    expect(await store.contextSummaries.count(s.id)).toBe(2);
  });
});
