/**
 * `hermes pairing list|approve|revoke`: the pairing API of `@hermes/store` on the profile's state
 * backend (state.db, or PostgreSQL with state.backend postgres).
 */
import { closest } from '@hermes/plugins';
import { EXIT } from '@hermes/protocol';
import type { ApprovedUser, AsyncStore, PendingPairing } from '@hermes/store';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';
import { withStateStore } from '../state-store.js';
import { pairingRefusal, renderPairingList } from './pairing-format.js';

/** Runs `fn` on the profile's state backend and closes it. */
function withStore<T>(options: GlobalOptions, fn: (store: AsyncStore) => Promise<T>): Promise<T> {
  return withStateStore(loadSettings(options), fn);
}

/** Platform names are lower-case (`telegram`, `discord`, `slack`, `whatsapp`, `signal`, `matrix`, `email`, `web`); accept `Telegram` too. */
const platformName = (platform: string): string => platform.trim().toLowerCase();

/** The bundled messaging platforms; a plugin platform is known once it has a pairing request or user. */
const BUNDLED_PLATFORMS = ['telegram', 'discord', 'slack', 'whatsapp', 'signal', 'matrix', 'email', 'web'];

/** Refuses (exit 2) a platform name nothing knows, naming it and the known ones. */
async function knownPlatform(store: AsyncStore, name: string): Promise<void> {
  if (BUNDLED_PLATFORMS.includes(name)) return; // (list() would drop expired codes approve reports)
  const { pending, approved } = await store.pairing.list();
  const known = [
    ...new Set([...BUNDLED_PLATFORMS, ...pending.map((p) => p.platform), ...approved.map((a) => a.platform)]),
  ];
  if (known.includes(name)) return;
  const near = closest(name, known);
  throw new CliExit(
    EXIT.USAGE,
    `unknown platform "${name}"${near ? ` (did you mean ${near}?)` : ''}; platforms: ${known.join(', ')}`,
  );
}

const pendingJson = (p: PendingPairing) => ({
  platform: p.platform,
  code: p.code,
  userId: p.userId,
  userName: p.userName,
  expiresAt: new Date(p.expiresAt).toISOString(),
});

const approvedJson = (a: ApprovedUser) => ({
  platform: a.platform,
  userId: a.userId,
  userName: a.userName,
  approvedAt: new Date(a.approvedAt).toISOString(),
});

/** Prints unexpired pairing requests and approved users (`--json`: `{pending, approved}`, times ISO 8601). */
export async function pairingList(options: GlobalOptions): Promise<void> {
  const { pending, approved } = await withStore(options, (store) => store.pairing.list());
  if (options.json) {
    const json = { pending: pending.map(pendingJson), approved: approved.map(approvedJson) };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  process.stdout.write(renderPairingList(pending, approved, Date.now()));
}

/** Approves the user holding CODE on PLATFORM; a wrong, expired or rate-limited code exits 1 with the reason. */
export async function pairingApprove(platform: string, code: string, options: GlobalOptions): Promise<void> {
  const name = platformName(platform);
  const result = await withStore(options, async (store) => {
    await knownPlatform(store, name);
    return store.pairing.approve(name, code);
  });
  if (!result.ok) throw new CliExit(1, pairingRefusal(result, name, code, Date.now()));
  process.stdout.write(`Approved ${result.userName ?? result.userId} on ${name}\n`);
}

/** Removes USER_ID's approval on PLATFORM; exits 1 when that user was not approved. */
export async function pairingRevoke(platform: string, userId: string, options: GlobalOptions): Promise<void> {
  const name = platformName(platform);
  const revoked = await withStore(options, (store) => store.pairing.revoke(name, userId));
  if (!revoked) throw new CliExit(1, `${userId} is not an approved user on ${name}`);
  process.stdout.write(`Revoked ${userId} on ${name}\n`);
}
