import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, liveOwner, readLock, releaseLock } from '../src/service/pid-lock.js';
import { platformClaimer } from '../src/service/platform-claims.js';
import { processStartToken } from '../src/service/process-info.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hermes-lock-'));
const PID_LOCK = fileURLToPath(new URL('../src/service/pid-lock.ts', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** Another process that takes the lock at `path` and holds it until killed. */
async function holder(path: string): Promise<ChildProcess> {
  const code = `import { acquireLock } from ${JSON.stringify(PID_LOCK)};
    const r = acquireLock(${JSON.stringify(path)}, { version: 'other', home: '/other/home' });
    console.log(r.ok ? 'held' : 'refused'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return child;
}

describe('pid locks', () => {
  it('records this process; a live owner refuses others; release removes it', async () => {
    const path = join(dir(), 'gateway.lock');
    expect(acquireLock(path, { version: '1', home: '/h' })).toEqual({ ok: true, tookOverStale: null });
    expect(readLock(path)).toMatchObject({ pid: process.pid, startToken: processStartToken(process.pid), home: '/h' });
    expect(liveOwner(path)?.pid).toBe(process.pid);
    releaseLock(path);
    expect(readLock(path)).toBeNull();
    const child = await holder(path);
    const refused = acquireLock(path, { version: '1', home: '/h' });
    expect(refused).toMatchObject({ ok: false, owner: { pid: child.pid, home: '/other/home' } });
  });

  it('takes over a lock whose pid is dead, or alive but another process (a reused pid)', () => {
    const path = join(dir(), 'gateway.lock');
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout.trim());
    writeFileSync(
      path,
      JSON.stringify({ pid: deadPid, startToken: 'linux:1', version: '0', url: null, startedAt: 1, home: '/h' }),
    );
    const taken = acquireLock(path, { version: '1', home: '/h' });
    expect(taken).toMatchObject({ ok: true, tookOverStale: { pid: deadPid } });
    // same pid number as a live process, but it started at another time: not the owner
    writeFileSync(
      path,
      JSON.stringify({ pid: process.ppid, startToken: 'linux:0', version: '0', url: null, startedAt: 1, home: '/h' }),
    );
    expect(liveOwner(path)).toBeNull();
    expect(acquireLock(path, { version: '1', home: '/h' }).ok).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
  });

  it('one user per platform token on the machine (the token itself is never written)', async () => {
    const env = { HERMES_LOCK_DIR: dir() };
    const claim = platformClaimer(env, '/home/a', '1');
    const first = claim('telegram', 'secret-token-1');
    expect(first.ok).toBe(true);
    const lockFile = (await import('node:fs')).readdirSync(env.HERMES_LOCK_DIR)[0] ?? '';
    expect(lockFile).toMatch(/^telegram-[0-9a-f]{16}\.lock$/);
    expect(readFileSync(join(env.HERMES_LOCK_DIR, lockFile), 'utf8')).not.toContain('secret-token-1');
    if (first.ok) first.release();
    const other = await holder(join(env.HERMES_LOCK_DIR, lockFile));
    const refused = claim('telegram', 'secret-token-1');
    expect(refused).toEqual({
      ok: false,
      reason: `its token is in use by another gateway on this machine (pid ${other.pid}, HERMES_HOME /other/home)`,
    });
    expect(claim('telegram', 'another-token').ok).toBe(true);
  });
});
