/**
 * Users apart at start (docs/security.md): `gateway.identity_links` applied to the store's identity links
 * (each list's later identities linked to its first; linking twice changes nothing), and the
 * sessions stored before identities given to `users.owner`, so `session_search` finds them for
 * that user only.
 */
import type { HermesConfig } from '@hermes/config';
import type { Logger } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';

export async function setupUsers(store: AsyncStore, config: HermesConfig, logger: Logger): Promise<void> {
  for (const [first, ...others] of config.gateway.identity_links) {
    if (first === undefined) continue;
    for (const other of others) await store.identityLinks.link(first, other);
  }
  const claimed = await store.sessions.claimUnowned(config.users.owner);
  if (claimed > 0) {
    logger.info(
      { sessions: claimed, owner: config.users.owner },
      `${claimed} session(s) stored before users apart now belong to ${config.users.owner} (users.owner)`,
    );
  }
}
