import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from './postgres.js';

describe.skipIf(postgresUnavailableReason() !== null)('the test PostgreSQL server', () => {
  const pgServer = usePostgres();

  it('listens on 127.0.0.1 with a password and hands out fresh databases', async () => {
    expect(pgServer.server.url).toMatch(/^postgres:\/\/hermes:[0-9a-f]+@127\.0\.0\.1:\d+\/postgres$/);
    const url = await pgServer.server.newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const result = await client.query<{ n: number }>('SELECT 1 + 1 AS n');
      expect(result.rows[0]?.n).toBe(2);
      const tables = await client.query("SELECT 1 FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('refuses a wrong password', async () => {
    const wrong = pgServer.server.url.replace(pgServer.server.password, 'wrong');
    const client = new pg.Client({ connectionString: wrong });
    await expect(client.connect()).rejects.toThrow(/password authentication failed/);
  });
});
