/**
 * `hermes trust list|approve|revoke`: the operator's consent for what the gateway loads or runs at
 * start (trust/trust-items.ts). `approve` records the content hash of each item now; it refuses
 * unless run by a human (a terminal or --yes, never under the agent terminal's marker).
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';
import { consentAllowed } from '../trust/consent-allowed.js';
import { approveCommand, type TrustState, trustStates } from '../trust/trust-gate.js';
import { trustItems } from '../trust/trust-items.js';
import { TrustStore } from '../trust/trust-store.js';

function currentStates(options: GlobalOptions): { store: TrustStore; states: TrustState[] } {
  const settings = loadSettings(options);
  const { store, problem } = TrustStore.load(settings.home);
  if (problem !== null) process.stderr.write(`hermes: warning: ${problem}\n`);
  return { store, states: trustStates(store, trustItems(settings)) };
}

const stateWords = (s: TrustState): string =>
  s.state === 'approved' ? 'approved' : s.state === 'new' ? 'pending (new)' : 'pending (changed since approval)';

/** `hermes trust list [--json]`: every item that needs consent, with its state. */
export async function trustList(options: GlobalOptions, opts: { json?: boolean }): Promise<void> {
  const { states } = currentStates(options);
  if (opts.json === true) {
    const rows = states.map((s) => ({ id: s.item.id, what: s.item.what, state: s.state, sha256: s.item.sha256 }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (states.length === 0) {
    process.stdout.write(
      'nothing needs consent (no non-bundled plugin, MCP server, skill, skill tap, hook hatch, BOOT.md or cron script)\n',
    );
    return;
  }
  const width = Math.max(...states.map((s) => s.item.id.length));
  for (const s of states) process.stdout.write(`${s.item.id.padEnd(width)}  ${stateWords(s)}  ${s.item.what}\n`);
  const pending = states.filter((s) => s.state !== 'approved');
  if (pending.length > 0) {
    process.stdout.write(
      `\n${pending.length} pending: approve one with \`${approveCommand('<id>')}\` or all with \`hermes trust approve --all\`\n`,
    );
  }
}

/** Refuses unless a human runs it. */
function requireHuman(yes: boolean): void {
  const allowed = consentAllowed(process.env, yes);
  if (!allowed.ok) throw new HermesError(ERROR_CODES.USAGE, `consent not recorded: ${allowed.why}`);
}

/** `hermes trust approve <id...> | --all [--yes]`: records the current content hash of each item. */
export async function trustApprove(
  ids: readonly string[],
  options: GlobalOptions,
  opts: { all?: boolean; yes?: boolean },
): Promise<void> {
  requireHuman(opts.yes === true);
  const { store, states } = currentStates(options);
  if (opts.all !== true && ids.length === 0)
    throw new HermesError(ERROR_CODES.USAGE, 'name the items to approve, or pass --all');
  const chosen = opts.all === true ? states.filter((s) => s.state !== 'approved') : [];
  for (const id of opts.all === true ? [] : ids) {
    const found = states.find((s) => s.item.id === id);
    if (found === undefined) {
      const known = states.map((s) => s.item.id).join(', ') || 'none';
      throw new HermesError(ERROR_CODES.USAGE, `nothing to approve named ${id} (known: ${known})`);
    }
    chosen.push(found);
  }
  for (const s of chosen) store.approve(s.item.id, s.item.sha256, 'hermes trust approve');
  store.save();
  for (const s of chosen) {
    process.stdout.write(`${s.item.id}: approved (${s.item.what}; sha256 ${s.item.sha256.slice(0, 12)})\n`);
  }
  if (chosen.length === 0) process.stdout.write('nothing pending\n');
}

/** `hermes trust revoke <id>`: forgets the approval (the item is pending at the next start). */
export async function trustRevoke(id: string, options: GlobalOptions): Promise<void> {
  const settings = loadSettings(options);
  const { store } = TrustStore.load(settings.home);
  if (!store.revoke(id)) throw new HermesError(ERROR_CODES.USAGE, `no approval of ${id} on file`);
  store.save();
  process.stdout.write(`${id}: approval revoked\n`);
}
