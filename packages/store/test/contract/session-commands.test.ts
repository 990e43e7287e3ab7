// What the session commands (/title, /sessions, /resume, /undo, /retry, hermes sessions) need of the
// store, on SQLite and PostgreSQL alike.
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

forEachBackend((open) => {
  it("lists a key's sessions newest first, titles one, reopens an ended one and removes one whole", async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const first = await store.sessions.create({ key: 'telegram:dm:1', platform: 'telegram', id: 'sess_1' });
    await store.transcripts.append(first.id, [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    clock.t += 1000;
    await store.sessions.end(first.id, 'reset');
    clock.t += 1000;
    const second = await store.sessions.create({ key: 'telegram:dm:1', platform: 'telegram', id: 'sess_2' });
    await store.sessions.create({ key: 'telegram:dm:2', platform: 'telegram', id: 'sess_other' });
    expect((await store.sessions.byKey('telegram:dm:1', 10)).map((s) => s.id)).toEqual(['sess_2', 'sess_1']);
    expect((await store.sessions.byKey('telegram:dm:1', 1)).map((s) => s.id)).toEqual(['sess_2']);

    expect(await store.sessions.setTitle(second.id, 'Trip to Lyon')).toBe(true);
    expect((await store.sessions.get(second.id))?.title).toBe('Trip to Lyon');
    expect(await store.sessions.setTitle('missing', 'x')).toBe(false);

    // reopen: only an ended session
    expect(await store.sessions.reopen(second.id)).toBe(false);
    await store.sessions.end(second.id, 'switch');
    clock.t += 1000;
    expect(await store.sessions.reopen(first.id)).toBe(true);
    const reopened = await store.sessions.get(first.id);
    expect(reopened).toMatchObject({ endedAt: null, endReason: null, updatedAt: clock.t });
    expect((await store.sessions.activeByKey('telegram:dm:1'))?.id).toBe(first.id);

    expect(await store.sessions.remove(first.id)).toBe(true);
    expect(await store.sessions.get(first.id)).toBeUndefined();
    expect(await store.transcripts.count(first.id)).toBe(0);
    expect(await store.sessions.remove(first.id)).toBe(false);
  });

  it('drops the last exchange: the last user message and everything after it, returned in order', async () => {
    const store = await open();
    const s = await store.sessions.create({ key: 'k', platform: 'api', id: 'sess_undo' });
    expect(await store.transcripts.dropLastExchange(s.id)).toEqual([]);
    await store.transcripts.append(s.id, [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'two' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calc', arguments: '{}' } }],
      },
      { role: 'tool', content: '4', tool_call_id: 'c1', name: 'calc' },
      { role: 'assistant', content: 'second answer' },
    ]);
    // a summary that kept messages from index 4 on no longer matches once they are gone; one up to 2 does
    await store.contextSummaries.save(s.id, { headCount: 0, keepFrom: 2, summary: 'they said one' });
    await store.contextSummaries.save(s.id, { headCount: 0, keepFrom: 4, summary: 'one, two, a tool' });
    const dropped = await store.transcripts.dropLastExchange(s.id);
    expect((await store.contextSummaries.latest(s.id))?.summary).toBe('they said one');
    expect(dropped.map((m) => m.content)).toEqual(['two', null, '4', 'second answer']);
    expect(await store.transcripts.list(s.id)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first answer' },
    ]);
    // appending goes on after the remaining messages
    await store.transcripts.append(s.id, [{ role: 'user', content: 'three' }]);
    expect((await store.transcripts.list(s.id)).map((m) => m.content)).toEqual(['one', 'first answer', 'three']);
  });
});
