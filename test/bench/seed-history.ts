// Seeds a HERMES_HOME's state.db with chat history before the gateway starts, through the store's
// own API (openStore, sessions.create, transcripts.append), as the gateway would have written it.
import { join } from 'node:path';
import { openStore } from '@hermes/store';

export interface SeedOptions {
  /** the session keys to give history (e.g. `telegram:<chatId>:dm`) */
  keys: readonly string[];
  platform: string;
  /** transcript rows per session (alternating user and assistant) */
  rows: number;
}

/** Writes `rows` transcript rows for every key into HERMES_HOME/state.db (one transaction per session). */
export function seedHistory(home: string, options: SeedOptions): void {
  if (options.rows <= 0) return;
  const store = openStore(join(home, 'state.db'));
  try {
    const batch = Array.from({ length: options.rows }, (_, n) => ({
      role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `message ${n} of a long conversation, with some words in it`,
    }));
    for (const key of options.keys) {
      store.transaction(() => {
        const session = store.sessions.create({ key, platform: options.platform, model: 'fake-model' });
        store.transcripts.append(session.id, batch);
      });
    }
  } finally {
    store.close();
  }
}
