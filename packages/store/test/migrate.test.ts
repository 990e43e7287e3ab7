import { ERROR_CODES, HermesError } from '@hermes/protocol';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { assertMigrationList, migrate } from '../src/migrate.js';
import type { SqliteMigration as Migration } from '../src/migration.js';
import { MIGRATIONS } from '../src/migrations/index.js';

const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function memoryDb(): Database.Database {
  const db = new Database(':memory:');
  dbs.push(db);
  return db;
}

const options = { now: () => 7, path: '/tmp/test-state.db' };

const tableNames = (db: Database.Database): string[] =>
  db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();

describe('migrate', () => {
  it('applies sql and up(db) migrations in order and records them', () => {
    const db = memoryDb();
    const list: Migration[] = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'two', up: (conn) => conn.prepare('INSERT INTO a (x) VALUES (?)').run(2) },
    ];
    expect(migrate(db, list, options)).toBe(2);
    expect(db.prepare('SELECT x FROM a').pluck().all()).toEqual([2]);
    expect(db.prepare('SELECT version, name, applied_at FROM schema_migrations').all()).toEqual([
      { version: 1, name: 'one', applied_at: 7 },
      { version: 2, name: 'two', applied_at: 7 },
    ]);
  });

  it('only applies the migrations a database has not seen yet (appending one later just works)', () => {
    const db = memoryDb();
    const v1: Migration[] = [{ version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' }];
    migrate(db, v1, options);
    const v2: Migration[] = [
      ...v1,
      { version: 2, name: 'outbox', sql: 'CREATE TABLE outbox (id INTEGER PRIMARY KEY)' },
    ];
    expect(migrate(db, v2, options)).toBe(2);
    expect(migrate(db, v2, options)).toBe(2);
    expect(tableNames(db)).toEqual(['a', 'outbox', 'schema_migrations']);
  });

  it('rolls back a failing migration completely and names it in a STATE_DB error', () => {
    const db = memoryDb();
    const list: Migration[] = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'half done', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    let caught: unknown;
    try {
      migrate(db, list, options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HermesError);
    expect((caught as HermesError).code).toBe(ERROR_CODES.STATE_DB);
    expect((caught as HermesError).message).toContain('migration 2 "half done" failed and was rolled back');
    expect((caught as HermesError).message).toContain('/tmp/test-state.db');
    expect(tableNames(db)).toEqual(['a', 'schema_migrations']);
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(1);
  });

  it('re-checks the version under the write lock and skips what another connection applied meanwhile', () => {
    const db = memoryDb();
    let secondRuns = 0;
    const list: Migration[] = [
      // Simulates another process committing migration 2 while this one was applying migration 1.
      { version: 1, name: 'one', up: (conn) => conn.exec("INSERT INTO schema_migrations VALUES (2, 'two', 1)") },
      { version: 2, name: 'two', up: () => void secondRuns++ },
    ];
    expect(migrate(db, list, options)).toBe(2);
    expect(secondRuns).toBe(0);
  });

  it('rejects a migration list that is not numbered 1, 2, 3, …', () => {
    expect(() => assertMigrationList([{ version: 2, name: 'two', sql: '' }])).toThrow(/expected 1/);
    expect(() =>
      assertMigrationList([
        { version: 1, name: 'one', sql: '' },
        { version: 1, name: 'again', sql: '' },
      ]),
    ).toThrow(/\("again"\) has version 1, expected 2/);
    expect(() => assertMigrationList([{ version: 1, name: ' ', sql: '' }])).toThrow(/empty name/);
  });

  it('ships a well-formed list', () => {
    expect(() => assertMigrationList(MIGRATIONS)).not.toThrow();
    expect(MIGRATIONS[0]?.version).toBe(1);
  });
});
