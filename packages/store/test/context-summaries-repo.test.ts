import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/index.js';
import { useStores } from './use-store.js';

const stores = useStores();

describe('context summaries repo', () => {
  it('keeps every summary; latest() is the newest; the transcript is untouched; deleted with the session', () => {
    let now = 1000;
    const store = stores.open({ now: () => now++, redact: (t) => t.replaceAll('sk-secret', '[REDACTED]') });
    expect(store.schemaVersion()).toBe(MIGRATIONS.length);
    store.sessions.create({ id: 's1', key: 'k', platform: 'cli' });
    store.transcripts.append('s1', [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ]);
    expect(store.contextSummaries.latest('s1')).toBeNull();
    store.contextSummaries.save('s1', { headCount: 2, keepFrom: 2, summary: 'first' });
    store.contextSummaries.save('s1', { headCount: 2, keepFrom: 3, summary: 'second, key sk-secret' });
    expect(store.contextSummaries.latest('s1')).toEqual({
      headCount: 2,
      keepFrom: 3,
      summary: 'second, key [REDACTED]',
    });
    expect(store.contextSummaries.count('s1')).toBe(2);
    expect(store.transcripts.count('s1')).toBe(3);
    expect(() => store.contextSummaries.save('s1', { headCount: 3, keepFrom: 2, summary: 'x' })).toThrow();
    store.db.prepare('DELETE FROM sessions WHERE id = ?').run('s1');
    expect(store.contextSummaries.latest('s1')).toBeNull();
  });
});
