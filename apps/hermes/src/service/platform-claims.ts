/**
 * One user per platform token on the machine: a pid lock per (platform, token hash) in a shared
 * lock folder (`HERMES_LOCK_DIR`, default `<tmpdir>/hermes-locks`). A second gateway (another
 * HERMES_HOME) with the same token leaves that platform off instead of fighting over its updates.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, releaseLock } from './pid-lock.js';

export function lockDir(env: Readonly<Record<string, string | undefined>>): string {
  return env.HERMES_LOCK_DIR || join(tmpdir(), 'hermes-locks');
}

/** The claim function the gateway calls per platform (the token is hashed, never written). */
export function platformClaimer(env: Readonly<Record<string, string | undefined>>, home: string, version: string) {
  return (platform: string, key: string): { ok: true; release(): void } | { ok: false; reason: string } => {
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
    const path = join(lockDir(env), `${platform}-${hash}.lock`);
    const result = acquireLock(path, { version, home });
    if (!result.ok) {
      return {
        ok: false,
        reason: `its token is in use by another gateway on this machine (pid ${result.owner.pid}, HERMES_HOME ${result.owner.home || 'unknown'})`,
      };
    }
    return { ok: true, release: () => releaseLock(path) };
  };
}
