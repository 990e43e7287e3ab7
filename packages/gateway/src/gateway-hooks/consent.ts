/**
 * Gateway-hook consent: a hook loads only when its name is approved in the consent store
 * (HERMES_HOME/shell-hooks-allowlist.json, `kind: gateway`) with the same folder hash, or an
 * escape hatch accepts it (`--accept-hooks`, HERMES_ACCEPT_HOOKS=1, `hooks_auto_accept: true`).
 * A new or changed hook is pending: never imported, never run.
 */
import { type ConsentVia, type GatewayHookApproval, hashHookFolder, ShellHookAllowlist } from '@hermes/plugins';
import type { GatewayHookSpec } from './discover.js';

/** approved: on file with this content; new: never approved; changed: approved, then a file of its folder changed. */
export type GatewayHookConsentState = 'approved' | 'new' | 'changed';

export interface GatewayHookConsent {
  state: GatewayHookConsentState;
  /** the folder's hash now */
  sha256: string;
  /** the files hashed, relative to the folder */
  files: string[];
  /** the approval on file, if any */
  approval: GatewayHookApproval | undefined;
}

/** The consent state of a discovered hook, hashing its folder now. */
export function gatewayHookConsent(allowlist: ShellHookAllowlist, spec: { name: string; dir: string }) {
  const { sha256, files } = hashHookFolder(spec.dir);
  const approval = allowlist.findGateway(spec.name);
  const state: GatewayHookConsentState =
    approval === undefined ? 'new' : approval.sha256 === sha256 ? 'approved' : 'changed';
  return { state, sha256, files, approval } satisfies GatewayHookConsent;
}

/** Records consent for the hook's content as `sha256` (the caller saves the store). */
export function approveGatewayHook(
  allowlist: ShellHookAllowlist,
  spec: { name: string; dir: string },
  sha256: string,
  via: ConsentVia,
  now: Date = new Date(),
): void {
  allowlist.upsertGateway({
    kind: 'gateway',
    name: spec.name,
    dir: spec.dir,
    sha256,
    approved_at: now.toISOString(),
    via,
  });
}

/** Why a pending hook did not load, in words: `new` / `changed since approval`. */
export function pendingReason(state: Exclude<GatewayHookConsentState, 'approved'>): string {
  return state === 'new' ? 'new' : 'changed since approval';
}

/** The log line of a hook that did not load for want of consent. */
export function pendingMessage(name: string, state: Exclude<GatewayHookConsentState, 'approved'>): string {
  return `gateway hook ${name} not loaded: not approved (${pendingReason(state)}); run \`hermes hooks approve ${name}\``;
}

export interface PendingGatewayHook {
  spec: GatewayHookSpec;
  state: Exclude<GatewayHookConsentState, 'approved'>;
  sha256: string;
}

export interface FilteredGatewayHooks {
  /** the hooks to load */
  approved: GatewayHookSpec[];
  /** the hooks left out, each with why */
  pending: PendingGatewayHook[];
  /** a corrupt store or a failed write, one line each */
  warnings: string[];
}

/**
 * Keeps the hooks that have consent. With an escape hatch in force (`autoAccept`), pending hooks
 * are approved and recorded (the store is written once). Never asks: the gateway has nobody to ask.
 */
export function filterApprovedHooks(
  hooks: readonly GatewayHookSpec[],
  options: { allowlistPath: string; autoAccept: ConsentVia | null; now?: () => Date },
): FilteredGatewayHooks {
  const result: FilteredGatewayHooks = { approved: [], pending: [], warnings: [] };
  if (hooks.length === 0) return result;
  const { allowlist, problem } = ShellHookAllowlist.load(options.allowlistPath);
  if (problem !== null) result.warnings.push(problem);
  let accepted = false;
  for (const spec of hooks) {
    const consent = gatewayHookConsent(allowlist, spec);
    if (consent.state === 'approved') {
      result.approved.push(spec);
    } else if (options.autoAccept !== null) {
      approveGatewayHook(allowlist, spec, consent.sha256, options.autoAccept, options.now?.());
      accepted = true;
      result.approved.push(spec);
    } else {
      result.pending.push({ spec, state: consent.state, sha256: consent.sha256 });
    }
  }
  if (accepted) {
    try {
      allowlist.save();
    } catch (err) {
      // the hooks still load for this run; the next start accepts them again
      result.warnings.push(`cannot write ${allowlist.path}: ${(err as Error).message}`);
    }
  }
  return result;
}
