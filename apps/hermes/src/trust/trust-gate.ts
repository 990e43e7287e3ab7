/**
 * The trust check at start: each item of trust-items.ts is approved (on file in trust.json with
 * the same hash), new or changed. Pending ones are not loaded and are reported once each, in the
 * log and on stderr, with the exact command that approves them. Never asks: a gateway has nobody
 * to ask, and nothing the model writes can approve (only the CLI at a terminal writes trust.json).
 */
import { stderr } from 'node:process';
import { autoAcceptVia, type ConsentVia } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import type { Settings } from '../settings.js';
import { BOOT_ITEM, hatchItems, type TrustItem, trustItems } from './trust-items.js';
import { TrustStore } from './trust-store.js';

export type TrustStateName = 'approved' | 'new' | 'changed';

export interface TrustState {
  item: TrustItem;
  state: TrustStateName;
}

/** The state of each item against the store. */
export function trustStates(store: TrustStore, items: readonly TrustItem[]): TrustState[] {
  return items.map((item) => {
    const approval = store.find(item.id);
    const state: TrustStateName =
      approval === undefined ? 'new' : approval.sha256 === item.sha256 ? 'approved' : 'changed';
    return { item, state };
  });
}

/** The command that approves `id`. */
export const approveCommand = (id: string): string => `hermes trust approve ${id}`;

/** The start-up line of a pending item. */
export function pendingLine(s: TrustState): string {
  const why = s.state === 'new' ? 'new' : 'changed since approval';
  return `${s.item.what} not loaded: not approved (${why}); run \`${approveCommand(s.item.id)}\``;
}

export interface TrustGate {
  /** the items left out */
  pending: TrustState[];
  /** a corrupt trust file, one line */
  warnings: string[];
  /** false for a pending item; true for an approved one and for anything that needs no consent */
  allows(id: string): boolean;
}

/** Checks `items` (all of them by default) against HERMES_HOME/trust.json. */
export function trustGate(settings: Settings, items: readonly TrustItem[] = trustItems(settings)): TrustGate {
  const { store, problem } = TrustStore.load(settings.home);
  const pending = trustStates(store, items).filter((s) => s.state !== 'approved');
  const blocked = new Set(pending.map((s) => s.item.id));
  return { pending, warnings: problem === null ? [] : [problem], allows: (id) => !blocked.has(id) };
}

/** Logs each pending item and warning (and writes it to stderr when the log does not reach a terminal). */
export function reportTrust(gate: TrustGate, logger: Logger): void {
  const report = (fields: Record<string, unknown>, message: string) => {
    logger.warn(fields, message);
    if (!stderr.isTTY) stderr.write(`hermes: warning: ${message}\n`);
  };
  for (const w of gate.warnings) report({ component: 'trust' }, w);
  // a pending BOOT.md is reported by the boot-md hook, a pending cron script by the run that would
  // run it: each by what would run it
  for (const p of gate.pending.filter((x) => x.item.kind !== 'boot' && x.item.kind !== 'script'))
    report({ component: 'trust', item: p.item.id, consent: p.state }, pendingLine(p));
}

/** The approved hashes of the HERMES_HOME files a gateway hook reads with `hermes.trustedFile` (BOOT.md). */
export function trustedFiles(home: string): Record<string, string> {
  const approval = TrustStore.load(home).store.find(BOOT_ITEM);
  return approval === undefined ? {} : { 'BOOT.md': approval.sha256 };
}

/**
 * The hook escape hatch in force, counting `hooks_auto_accept` and a HERMES_ACCEPT_HOOKS from
 * HERMES_HOME/.env only when approved (`--accept-hooks` and the process environment are the operator's).
 */
export function trustedAutoAcceptVia(
  settings: Pick<Settings, 'config' | 'dotenv' | 'env' | 'home'>,
  flag: boolean,
): ConsentVia | null {
  const { store } = TrustStore.load(settings.home);
  const approved = new Set(
    trustStates(store, hatchItems(settings))
      .filter((s) => s.state === 'approved')
      .map((s) => s.item.id),
  );
  const fromFile = settings.dotenv.HERMES_ACCEPT_HOOKS !== undefined;
  const env =
    fromFile && !approved.has('env:HERMES_ACCEPT_HOOKS') ? { ...settings.env, HERMES_ACCEPT_HOOKS: '' } : settings.env;
  return autoAcceptVia({
    flag,
    env,
    config: settings.config.hooks_auto_accept && approved.has('config:hooks_auto_accept'),
  });
}
