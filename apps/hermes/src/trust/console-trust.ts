/**
 * The console's Trust view port (@hermes/gateway's ConsoleTrustPort): `hermes trust list|approve|
 * revoke` on the same HERMES_HOME/trust.json, behind the console's login and CSRF. Items are those
 * of the config the gateway started with, their content hashed now; a restart applies a change.
 */
import type { ConsoleTrustPort, ConsoleTrustRow } from '@hermes/gateway';
import type { Settings } from '../settings.js';
import { type TrustState, trustStates } from './trust-gate.js';
import { trustItems } from './trust-items.js';
import { TrustStore } from './trust-store.js';

const row = (s: TrustState): ConsoleTrustRow => ({
  id: s.item.id,
  what: s.item.what,
  state: s.state,
  sha256: s.item.sha256,
});

export function consoleTrust(settings: Settings): ConsoleTrustPort {
  const now = () => {
    const { store } = TrustStore.load(settings.home);
    return { store, states: trustStates(store, trustItems(settings)) };
  };
  return {
    list: () => now().states.map(row),
    approve(id) {
      const { store, states } = now();
      const found = states.find((s) => s.item.id === id);
      if (found === undefined) return null;
      store.approve(id, found.item.sha256, 'console');
      store.save();
      return { ...row(found), state: 'approved' };
    },
    revoke(id) {
      const { store } = TrustStore.load(settings.home);
      if (!store.revoke(id)) return false;
      store.save();
      return true;
    },
  };
}
