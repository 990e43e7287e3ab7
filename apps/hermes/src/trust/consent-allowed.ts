/**
 * May this `hermes` process record consent? Only a human's: stdin is a terminal or `--yes` was
 * given, and never under the agent terminal's marker (HERMES_AGENT_TERMINAL, set in every command
 * the terminal tool runs), so a `hermes ...` the model runs cannot approve what the model wrote.
 */
import { stdin } from 'node:process';
import { AGENT_TERMINAL_MARKER } from '@hermes/protocol';

export type ConsentAllowed = { ok: true } | { ok: false; why: string };

export function consentAllowed(
  env: Readonly<Record<string, string | undefined>>,
  yes: boolean,
  isTTY: boolean = stdin.isTTY === true,
): ConsentAllowed {
  if ((env[AGENT_TERMINAL_MARKER] ?? '') !== '') {
    return {
      ok: false,
      why: `run by the agent's terminal tool (${AGENT_TERMINAL_MARKER} is set): only the operator approves`,
    };
  }
  if (!yes && !isTTY) return { ok: false, why: 'not run at a terminal: run it in a terminal or pass --yes' };
  return { ok: true };
}
