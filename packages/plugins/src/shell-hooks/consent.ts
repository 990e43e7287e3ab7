/**
 * Shell-hook consent: a hook runs only when (event, command) is in the allowlist with the same
 * script content, or an escape hatch accepts it (`--accept-hooks`, HERMES_ACCEPT_HOOKS=1,
 * `hooks_auto_accept: true`).
 */
import type { HookName } from '@hermes/protocol';
import type { ConsentVia, ShellHookAllowlist } from './allowlist.js';
import type { HookScript } from './script-file.js';

/** allowed: approved with this script content; not_allowed: never approved; script_changed: approved, then the script was edited. */
export type ConsentState = 'allowed' | 'not_allowed' | 'script_changed';

/** The consent state of (event, command) given the script it runs now. */
export function consentState(
  allowlist: ShellHookAllowlist,
  hook: { event: string; command: string },
  script: HookScript | null,
): ConsentState {
  const entry = allowlist.find(hook.event, hook.command);
  if (entry === undefined) return 'not_allowed';
  return entry.sha256 === (script?.sha256 ?? null) ? 'allowed' : 'script_changed';
}

/** What an interactive prompt is asked about. */
export interface ConsentRequest {
  event: HookName;
  command: string;
  matcher: string | null;
  script: HookScript | null;
  state: Exclude<ConsentState, 'allowed'>;
}

/** Asks the user; resolves true for yes. Injectable so tests answer without a terminal. */
export type ConsentPrompt = (request: ConsentRequest) => Promise<boolean>;

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);

/** True when HERMES_ACCEPT_HOOKS is 1, true, yes or on (any case). */
export function acceptHooksFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  return TRUTHY.has((env.HERMES_ACCEPT_HOOKS ?? '').trim().toLowerCase());
}

/** The escape hatch in force, if any (the flag first, then the env var, then config). */
export function autoAcceptVia(sources: {
  flag: boolean;
  env: Readonly<Record<string, string | undefined>>;
  config: boolean;
}): ConsentVia | null {
  if (sources.flag) return '--accept-hooks';
  if (acceptHooksFromEnv(sources.env)) return 'HERMES_ACCEPT_HOOKS';
  if (sources.config) return 'hooks_auto_accept';
  return null;
}

/** The one-line advice printed when a hook is skipped for want of consent. */
export const CONSENT_HINT =
  'approve it by running `hermes chat` in a terminal (it asks), or pass --accept-hooks, set HERMES_ACCEPT_HOOKS=1, or set hooks_auto_accept: true in config.yaml';
