import { describe, expect, it } from 'vitest';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

describe('store.apiResponses', () => {
  it('maps a response id to its session and transcript length, across a reopen', () => {
    const path = freshPath();
    const first = open({}, path);
    const session = first.sessions.create({ key: 'api:response:resp_1', platform: 'api' });
    expect(first.apiResponses.get('resp_1')).toBeUndefined();
    first.apiResponses.record('resp_1', session.id, 2);
    first.close();
    const second = open({}, path);
    expect(second.apiResponses.get('resp_1')).toMatchObject({ id: 'resp_1', sessionId: session.id, messageCount: 2 });
  });

  it('goes with its session (retention prunes both), and refuses an unknown session', () => {
    const store = open({}, freshPath());
    const session = store.sessions.create({ key: 'api:response:resp_2', platform: 'api' });
    store.apiResponses.record('resp_2', session.id, 4);
    store.db.prepare('DELETE FROM sessions WHERE id = ?').run(session.id);
    expect(store.apiResponses.get('resp_2')).toBeUndefined();
    expect(() => store.apiResponses.record('resp_3', 'sess_missing', 1)).toThrow(/FOREIGN KEY/);
  });
});
