/**
 * What the operator's own CLI commands (`plugins enable`, `plugins install --enable`, `config
 * set`) do for consent: record it for the item they just wrote, when a human runs them
 * (consent-allowed.ts); otherwise say that the gateway will not load it and how to approve.
 */
import { consentAllowed } from './consent-allowed.js';
import { approveCommand } from './trust-gate.js';
import type { TrustItem } from './trust-items.js';
import { TrustStore, type TrustVia } from './trust-store.js';

/** Records consent for `items` (or explains why not) and returns one line per item to print. */
export function recordConsent(home: string, items: readonly TrustItem[], via: TrustVia, yes: boolean): string[] {
  if (items.length === 0) return [];
  const allowed = consentAllowed(process.env, yes);
  if (!allowed.ok) {
    return items.map(
      (i) => `${i.id}: not approved (${allowed.why}); the gateway will not load it until \`${approveCommand(i.id)}\``,
    );
  }
  const { store } = TrustStore.load(home);
  for (const i of items) store.approve(i.id, i.sha256, via);
  store.save();
  return items.map((i) => `${i.id}: approved as it is now (sha256 ${i.sha256.slice(0, 12)})`);
}
