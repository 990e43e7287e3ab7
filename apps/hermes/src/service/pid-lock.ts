/**
 * A pid lock file: the owner's pid, its process start token, the version, the URL it serves and
 * when it started. A lock whose pid is dead, or alive but a different process (the pid was
 * reused), is stale and taken over. Creation is atomic (O_EXCL). Used for one gateway per
 * HERMES_HOME (`gateway.lock`) and one poller per platform token on the machine.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '@hermes/protocol';
import { isSameProcess, processStartToken } from './process-info.js';

export const LOCK_FILE = 'gateway.lock';

export interface LockInfo {
  pid: number;
  /** process start token (see processStartToken) */
  startToken: string | null;
  version: string;
  /** http://host:port once listening, null before */
  url: string | null;
  startedAt: number;
  home: string;
}

export type AcquireResult = { ok: true; tookOverStale: LockInfo | null } | { ok: false; owner: LockInfo };

/** The gateway lock of a HERMES_HOME. */
export const lockPath = (home: string): string => join(home, LOCK_FILE);

/** The lock's content, or null when there is none or it is unreadable. */
export function readLock(path: string): LockInfo | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      startToken: typeof parsed.startToken === 'string' ? parsed.startToken : null,
      version: String(parsed.version ?? '?'),
      url: typeof parsed.url === 'string' ? parsed.url : null,
      startedAt: typeof parsed.startedAt === 'number' ? parsed.startedAt : 0,
      home: typeof parsed.home === 'string' ? parsed.home : '',
    };
  } catch {
    return null;
  }
}

/** The live owner of the lock, or null when there is no lock or it is stale. */
export function liveOwner(path: string): LockInfo | null {
  const info = readLock(path);
  return info && isSameProcess(info.pid, info.startToken) ? info : null;
}

function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Takes the lock for this process; refuses while a live gateway holds it; takes over a stale one. */
export function acquireLock(path: string, info: { version: string; home: string; url?: string | null }): AcquireResult {
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockInfo = {
    pid: process.pid,
    startToken: processStartToken(process.pid),
    version: info.version,
    url: info.url ?? null,
    startedAt: Date.now(),
    home: info.home,
  };
  const content = `${JSON.stringify(mine, null, 2)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path, content)) return { ok: true, tookOverStale: null };
    const owner = readLock(path);
    if (owner && owner.pid === process.pid) return { ok: true, tookOverStale: null };
    if (owner && isSameProcess(owner.pid, owner.startToken)) return { ok: false, owner };
    // stale (dead or reused pid, or unreadable): remove it and try again (another starter may race us)
    rmSync(path, { force: true });
    if (tryCreate(path, content)) return { ok: true, tookOverStale: owner };
  }
  const owner = readLock(path);
  return owner ? { ok: false, owner } : { ok: true, tookOverStale: null };
}

/** Records the URL the gateway serves (after listen), so status and start can find /health. */
export function updateLock(path: string, patch: Partial<Pick<LockInfo, 'url'>>): void {
  const current = readLock(path);
  if (!current || current.pid !== process.pid) return;
  writeFileAtomicSync(path, `${JSON.stringify({ ...current, ...patch }, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the lock if this process holds it. */
export function releaseLock(path: string): void {
  const current = readLock(path);
  if (current && current.pid === process.pid) rmSync(path, { force: true });
}
