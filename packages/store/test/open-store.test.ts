import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { MIGRATIONS, openStore, type Store } from '@hermes/store';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const open: Store[] = [];
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

function track(store: Store): Store {
  open.push(store);
  return store;
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('openStore', () => {
  it('creates missing parent directories and opens in WAL mode with the documented pragmas', () => {
    const path = join(tempDir(), 'nested', 'home', 'state.db');
    const store = track(openStore(path));
    expect(existsSync(path)).toBe(true);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    // WAL is a property of the file: a plain connection sees it too.
    const raw = new Database(path);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('applies every migration once and is idempotent when opened again', () => {
    const path = join(tempDir(), 'state.db');
    const first = openStore(path, { now: () => 42 });
    expect(first.schemaVersion()).toBe(MIGRATIONS.length);
    first.sessions.create({ key: 'k', platform: 'cli', id: 'sess_keep' });
    first.close();

    const second = track(openStore(path, { now: () => 99 }));
    expect(second.schemaVersion()).toBe(MIGRATIONS.length);
    const rows = second.db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: 42 })));
    expect(second.sessions.get('sess_keep')?.sessionKey).toBe('k');
  });

  it('refuses a database written by a newer schema, naming both versions', () => {
    const path = join(tempDir(), 'state.db');
    openStore(path).close();
    const raw = new Database(path);
    raw
      .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from the future', 0)")
      .run(MIGRATIONS.length + 5);
    raw.close();

    const error = catchError(() => openStore(path));
    expect(error).toBeInstanceOf(HermesError);
    expect((error as HermesError).code).toBe(ERROR_CODES.STATE_DB);
    expect((error as HermesError).message).toContain(path);
    expect((error as HermesError).message).toContain(`schema version ${MIGRATIONS.length + 5}`);
    expect((error as HermesError).message).toContain(`versions up to ${MIGRATIONS.length}`);
  });

  it('refuses a file that is not a SQLite database, naming the path, and leaves it untouched', () => {
    const path = join(tempDir(), 'state.db');
    const text = 'this is a text file, not a database\n'.repeat(200);
    writeFileSync(path, text);
    const error = catchError(() => openStore(path));
    expect(error).toBeInstanceOf(HermesError);
    expect((error as HermesError).code).toBe(ERROR_CODES.STATE_DB);
    expect((error as HermesError).message).toContain(`state database ${path} is not a SQLite database`);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('refuses a path that is a directory with a STATE_DB error naming it', () => {
    const path = join(tempDir(), 'state.db');
    mkdirSync(path);
    const error = catchError(() => openStore(path));
    expect((error as HermesError).code).toBe(ERROR_CODES.STATE_DB);
    expect((error as HermesError).message).toContain(path);
  });

  it('lets two Store instances on the same file see each other’s writes', () => {
    const path = join(tempDir(), 'state.db');
    const a = track(openStore(path));
    const b = track(openStore(path));
    const session = a.sessions.create({ key: 'telegram:1', platform: 'telegram' });
    a.transcripts.append(session.id, [{ role: 'user', content: 'from a' }]);
    expect(b.sessions.activeByKey('telegram:1')?.id).toBe(session.id);
    b.transcripts.append(session.id, [{ role: 'assistant', content: 'from b' }]);
    expect(a.transcripts.list(session.id)).toEqual([
      { role: 'user', content: 'from a' },
      { role: 'assistant', content: 'from b' },
    ]);
    expect(b.transcripts.count(session.id)).toBe(2);
  });

  it('rolls back the whole store.transaction when its function throws', () => {
    const store = track(openStore(join(tempDir(), 'state.db')));
    expect(() =>
      store.transaction(() => {
        store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_gone' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.sessions.get('sess_gone')).toBeUndefined();
    expect(store.transaction(() => store.sessions.create({ key: 'k', platform: 'cli' }).platform)).toBe('cli');
  });

  it('close() is idempotent and really closes the connection', () => {
    const store = openStore(join(tempDir(), 'state.db'));
    store.close();
    store.close();
    expect(store.db.open).toBe(false);
  });
});
