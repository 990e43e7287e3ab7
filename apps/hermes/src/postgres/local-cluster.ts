/**
 * A PostgreSQL server for one HERMES_HOME, without Docker (`hermes state postgres`): a cluster
 * initialised once, started and stopped with the binaries' own `pg_ctl`, listening on 127.0.0.1
 * only, user `hermes` with a random password, database `hermes`. Its record (data folder, port,
 * password, who it runs as) is HERMES_HOME/postgres/cluster.json (0600).
 *
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user (else
 * `nobody`), and since that user cannot enter HERMES_HOME (0700), its data folder is
 * /var/lib/hermes-postgres/<id of the home>/ (0700, that user's), with the npm package's binaries
 * copied beside it when they are not under /usr.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { PostgresBinaries } from './local-binaries.js';

export const LOCAL_USER = 'hermes';
export const LOCAL_DATABASE = 'hermes';
export const DEFAULT_PORT = 5432;
const ROOT_BASE = '/var/lib/hermes-postgres';

export interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

export interface ClusterRecord {
  /** the folder holding `data/` (the cluster) and its log (postgres.log) */
  dir: string;
  binDir: string;
  port: number;
  password: string;
  runAs: RunAs | null;
}

export const recordPath = (home: string) => join(home, 'postgres', 'cluster.json');

export function readRecord(home: string): ClusterRecord | null {
  const file = recordPath(home);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterRecord;
}

function writeRecord(home: string, record: ClusterRecord): void {
  mkdirSync(join(home, 'postgres'), { recursive: true, mode: 0o700 });
  writeFileSync(recordPath(home), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

export const urlOf = (r: ClusterRecord) =>
  `postgres://${LOCAL_USER}:${r.password}@127.0.0.1:${r.port}/${LOCAL_DATABASE}`;

function runAsUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && Number.isInteger(gid)) return { name, uid, gid };
    } catch {
      // no such user: the next
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

/** Where a new cluster of `home` goes, and which binaries it uses (copied where its user can reach them). */
export function planRecord(home: string, binaries: PostgresBinaries, port: number): ClusterRecord {
  const runAs = runAsUser();
  const password = randomBytes(18).toString('base64url');
  if (runAs === null) return { dir: join(home, 'postgres'), binDir: binaries.binDir, port, password, runAs };
  const id = createHash('sha256').update(home).digest('hex').slice(0, 12);
  const dir = join(ROOT_BASE, id);
  let binDir = binaries.binDir;
  if (!binDir.startsWith('/usr/')) {
    // one copy per build of the binaries, shared by every home on the machine
    const native = dirname(binDir);
    const { size, mtimeMs } = statSync(join(binDir, 'postgres'));
    const stamp = createHash('sha256').update(`${native}:${size}:${mtimeMs}`).digest('hex').slice(0, 12);
    const copy = join(ROOT_BASE, `bin-${stamp}`);
    mkdirSync(ROOT_BASE, { recursive: true, mode: 0o755 });
    if (!existsSync(join(copy, 'native', 'bin', 'postgres'))) {
      const staging = mkdtempSync(join(ROOT_BASE, 'copy-'));
      cpSync(native, join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
      chmodSync(staging, 0o755);
      rmSync(copy, { recursive: true, force: true });
      renameSync(staging, copy);
    }
    binDir = join(copy, 'native', 'bin');
  }
  return { dir, binDir, port, password, runAs };
}

interface RunResult {
  code: number;
  output: string;
}

/** Runs one of the binaries (as the record's user); resolves with its exit code and output. */
export function runBinary(record: ClusterRecord, name: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const ids = record.runAs ? { uid: record.runAs.uid, gid: record.runAs.gid } : {};
    const child = spawn(join(record.binDir, name), args, {
      ...ids,
      cwd: record.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const dataDir = (r: ClusterRecord) => join(r.dir, 'data');

/** Creates the cluster once (initdb), recording it; an existing one is kept as it is. */
export async function initCluster(home: string, record: ClusterRecord): Promise<void> {
  if (existsSync(join(dataDir(record), 'PG_VERSION'))) return;
  mkdirSync(record.dir, { recursive: true, mode: 0o700 });
  chmodSync(record.dir, 0o700);
  if (record.runAs) chmodSync(dirname(record.dir), 0o755); // its user passes through to its own folder
  if (record.runAs) chownSync(record.dir, record.runAs.uid, record.runAs.gid);
  const pwfile = join(record.dir, 'initdb-password');
  writeFileSync(pwfile, `${record.password}\n`, { mode: 0o600 });
  if (record.runAs) chownSync(pwfile, record.runAs.uid, record.runAs.gid);
  try {
    const args = [`--pgdata=${dataDir(record)}`, `--username=${LOCAL_USER}`, `--pwfile=${pwfile}`];
    const result = await runBinary(record, 'initdb', [
      ...args,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--no-locale',
    ]);
    if (result.code !== 0) throw new Error(`initdb exited with ${result.code}: ${result.output.slice(-1500)}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
  writeRecord(home, record);
}

/** Whether the cluster's server runs (pg_ctl status). */
export async function isRunning(record: ClusterRecord): Promise<boolean> {
  if (!existsSync(dataDir(record))) return false;
  return (await runBinary(record, 'pg_ctl', ['status', '-D', dataDir(record)])).code === 0;
}

/** Whether nothing listens on 127.0.0.1:`port`. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Starts the server on the record's port and waits until it accepts connections; creates the database. */
export async function startCluster(home: string, record: ClusterRecord): Promise<void> {
  // pg_ctl passes these through /bin/sh. No Unix socket: TCP on 127.0.0.1 is the only way in, and a
  // long HERMES_HOME cannot exceed the socket path limit (107 bytes) and stop the server starting.
  const options = [`-p ${record.port}`, '-c listen_addresses=127.0.0.1', "-c unix_socket_directories=''"].join(' ');
  const log = join(record.dir, 'postgres.log');
  const result = await runBinary(record, 'pg_ctl', [
    'start',
    '-D',
    dataDir(record),
    '-l',
    log,
    '-w',
    '-t',
    '60',
    '-o',
    options,
  ]);
  if (result.code !== 0) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-1500) : '';
    throw new Error(`pg_ctl start exited with ${result.code}: ${(result.output + tail).trim().slice(-1500)}`);
  }
  writeRecord(home, record);
  const { default: pg } = await import('pg'); // loaded here only: the CLI starts without it
  const client = new pg.Client({
    connectionString: `postgres://${LOCAL_USER}:${record.password}@127.0.0.1:${record.port}/postgres`,
  });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [LOCAL_DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${LOCAL_DATABASE}`);
  } finally {
    await client.end();
  }
}

/** Fast shutdown (running sessions are ended); waits until the server is gone. */
export async function stopCluster(record: ClusterRecord): Promise<void> {
  const result = await runBinary(record, 'pg_ctl', ['stop', '-D', dataDir(record), '-m', 'fast', '-w', '-t', '60']);
  if (result.code !== 0)
    throw new Error(`pg_ctl stop exited with ${result.code}: ${result.output.trim().slice(-1500)}`);
}
