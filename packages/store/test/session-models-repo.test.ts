// The model a session was switched to with /model: kept across a reopen, replaced, cleared, and
// removed with its session (retention prunes both); an unknown session is refused.
import { describe, expect, it } from 'vitest';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

describe('store.sessionModels', () => {
  it('keeps a session’s choice across a reopen; set replaces it, clear removes it', () => {
    const path = freshPath();
    const clock = { t: 1_800_000_000_000 };
    const first = open({ now: () => clock.t }, path);
    const session = first.sessions.create({ key: 'telegram:dm:42', platform: 'telegram' });
    expect(first.sessionModels.get(session.id)).toBeUndefined();
    first.sessionModels.set(session.id, 'other', 'model-b');
    first.close();
    const second = open({ now: () => clock.t }, path);
    expect(second.sessionModels.get(session.id)).toEqual({
      sessionId: session.id,
      provider: 'other',
      model: 'model-b',
      updatedAt: clock.t,
    });
    clock.t += 1000;
    second.sessionModels.set(session.id, 'ollama', 'llama3.2:3b');
    expect(second.sessionModels.get(session.id)).toMatchObject({
      provider: 'ollama',
      model: 'llama3.2:3b',
      updatedAt: clock.t,
    });
    expect(second.sessionModels.clear(session.id)).toBe(true);
    expect(second.sessionModels.clear(session.id)).toBe(false);
    expect(second.sessionModels.get(session.id)).toBeUndefined();
  });

  it('goes with its session (retention prunes both), and refuses an unknown session', () => {
    const clock = { t: 1_800_000_000_000 };
    const store = open({ now: () => clock.t });
    const session = store.sessions.create({ key: 'k', platform: 'telegram' });
    store.sessionModels.set(session.id, 'other', 'model-b');
    clock.t += 10 * 24 * 60 * 60 * 1000;
    store.pruner.prune(clock.t - 1000);
    expect(store.sessionModels.get(session.id)).toBeUndefined();
    expect(() => store.sessionModels.set('sess_missing', 'other', 'x')).toThrow(/FOREIGN KEY/);
  });
});
