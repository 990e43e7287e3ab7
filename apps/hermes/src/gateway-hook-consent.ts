/**
 * Which gateway hooks `hermes gateway run` loads: only those approved with their current content
 * (`hermes hooks approve NAME`, `hermes hooks install`), or accepted by an escape hatch. Each
 * pending hook gets one log line and one stderr line; start-up never waits for an answer.
 */
import { stderr } from 'node:process';
import { filterApprovedHooks, type GatewayHookSpec, pendingMessage } from '@hermes/gateway';
import { allowlistPath } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import type { GlobalOptions } from './main.js';
import type { Settings } from './settings.js';
import { trustedAutoAcceptVia } from './trust/trust-gate.js';

/** The hooks with consent; pending ones are reported and left out. */
export function approvedHomeHooks(
  settings: Pick<Settings, 'home' | 'env' | 'config' | 'dotenv'>,
  hooks: readonly GatewayHookSpec[],
  options: GlobalOptions,
  logger: Logger,
): GatewayHookSpec[] {
  const filtered = filterApprovedHooks(hooks, {
    allowlistPath: allowlistPath(settings.home),
    autoAccept: trustedAutoAcceptVia(settings, options.acceptHooks ?? false),
  });
  const report = (fields: Record<string, unknown>, message: string) => {
    logger.warn(fields, message);
    // on a terminal the logger's console prints it already
    if (!stderr.isTTY) stderr.write(`hermes: warning: ${message}\n`);
  };
  for (const w of filtered.warnings) report({}, w);
  for (const p of filtered.pending) {
    report({ hook: p.spec.name, dir: p.spec.dir, consent: p.state }, pendingMessage(p.spec.name, p.state));
  }
  return filtered.approved;
}
