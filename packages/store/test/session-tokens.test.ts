// Migration 19 (session tokens) and the sums it keeps: each turn's reported tokens are added to its
// session by the transcript append, the same UPDATE that marks the session active, alone or inside a
// unit of work; both backends. A database of version 18 migrates with its sessions at zero.
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { MIGRATIONS, openPgStore, openStore } from '@hermes/store';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../test/helpers/postgres.js';
import { migrate } from '../src/migrate.js';
import { migratePg } from '../src/pg/pg-migrate.js';
import { forEachBackend } from './contract/backends.js';
import { useTempDirs } from './temp-dir.js';

const exchange = (n: number): ChatMessage[] => [
  { role: 'user', content: `question ${n}` },
  { role: 'assistant', content: `answer ${n}` },
];

forEachBackend((open) => {
  it("sums each turn's reported tokens per session, in the append alone or in a unit of work", async () => {
    const store = await open();
    const a = await store.sessions.create({ key: 'telegram:dm:1', platform: 'telegram' });
    const b = await store.sessions.create({ key: 'telegram:dm:2', platform: 'telegram' });
    expect(await store.transcripts.tokens(a.id)).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
    await store.transcripts.append(a.id, exchange(1), { prompt_tokens: 120, completion_tokens: 30 });
    await store.commit([
      {
        kind: 'transcripts.append',
        sessionId: a.id,
        messages: exchange(2),
        tokens: { prompt_tokens: 200, completion_tokens: 45 },
      },
      { kind: 'transcripts.append', sessionId: b.id, messages: exchange(1), tokens: null },
    ]);
    // a turn the model reported nothing for adds nothing; odd values count as nothing
    await store.transcripts.append(a.id, exchange(3));
    await store.transcripts.append(a.id, exchange(4), { prompt_tokens: Number.NaN, completion_tokens: -3 });
    expect(await store.transcripts.tokens(a.id)).toEqual({ prompt_tokens: 320, completion_tokens: 75 });
    expect(await store.transcripts.tokens(b.id)).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
    expect(await store.transcripts.count(a.id)).toBe(8);
    expect(await store.transcripts.tokens('sess_missing')).toBeUndefined();
  });
});

describe('migration 19 (session tokens)', () => {
  const tempDir = useTempDirs();

  it('state.db of version 18: its sessions start at zero and count from then on', () => {
    const path = join(tempDir(), 'state.db');
    const old = new Database(path);
    migrate(old, MIGRATIONS.slice(0, 18), { now: () => 1, path });
    old
      .prepare(
        "INSERT INTO sessions (id, session_key, platform, created_at, updated_at) VALUES ('sess_old', 'k', 'cli', 1, 1)",
      )
      .run();
    old.close();
    const store = openStore(path, { backgroundCheckpoints: false });
    try {
      expect(store.schemaVersion()).toBe(MIGRATIONS.length);
      expect(store.transcripts.tokens('sess_old')).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
      store.transcripts.append('sess_old', exchange(1), { prompt_tokens: 7, completion_tokens: 2 });
      expect(store.transcripts.tokens('sess_old')).toEqual({ prompt_tokens: 7, completion_tokens: 2 });
    } finally {
      store.close();
    }
  });

  describe.skipIf(postgresUnavailableReason() !== null)('PostgreSQL', () => {
    const server = usePostgres();

    it('a database of version 18: its sessions start at zero', async () => {
      const url = await server.server.newDatabase('tokens_old');
      const pool = new pg.Pool({ connectionString: url });
      try {
        await migratePg(pool, MIGRATIONS.slice(0, 18), { now: () => 1, url });
        await pool.query(
          "INSERT INTO sessions (id, session_key, platform, created_at, updated_at) VALUES ('sess_old', 'k', 'cli', 1, 1)",
        );
      } finally {
        await pool.end();
      }
      const store = await openPgStore(url);
      try {
        expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
        expect(await store.transcripts.tokens('sess_old')).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
        await store.transcripts.append('sess_old', exchange(1), { prompt_tokens: 7, completion_tokens: 2 });
        expect(await store.transcripts.tokens('sess_old')).toEqual({ prompt_tokens: 7, completion_tokens: 2 });
      } finally {
        await store.close();
      }
    });
  });
});
