/**
 * What a command (or a code snippet) passes before it runs, for every tool that runs one
 * (`terminal`, `execute_code`): the always-blocked floor refuses it whatever was approved; a
 * dangerous pattern (the built-in list, naming HERMES_HOME on the local backend, the operator's
 * extra patterns) asks the user unless --yolo; a denial or timeout is an error for the model.
 */
import os from 'node:os';
import type { ApprovalChoice, ApprovalRequest, ToolContext } from '@hermes/protocol';
import { BLOCKED_FLOOR } from './blocked-floor.js';
import { DANGEROUS_PATTERNS, type DangerousPattern } from './dangerous-patterns.js';
import { hermesHomePattern } from './hermes-home-patterns.js';
import { compileExtraPatterns, type DangerousMatch, matchPatterns } from './match-dangerous.js';
import { errorResult } from './tool-result.js';

/** The patterns that ask for approval, as the terminal's options set them (throws TypeError on a bad extra pattern). */
export function approvalPatterns(options: {
  backend?: 'local' | 'sandbox';
  hermesHomes?: readonly string[];
  homeDir?: string;
  extraDangerousPatterns?: readonly string[];
}): DangerousPattern[] {
  const hermesHomes = options.hermesHomes ?? [];
  // on the local backend nothing hides HERMES_HOME: naming it is dangerous (the sandbox hides it)
  const homePatterns =
    options.backend !== 'sandbox' && hermesHomes.length > 0
      ? [hermesHomePattern(hermesHomes, options.homeDir ?? os.homedir())]
      : [];
  return [...DANGEROUS_PATTERNS, ...homePatterns, ...compileExtraPatterns(options.extraDangerousPatterns ?? [])];
}

const approved = (choice: ApprovalChoice) => choice === 'once' || choice === 'session' || choice === 'always';

export interface ScreenOptions {
  patterns: readonly DangerousPattern[];
  yolo?: boolean | undefined;
  /** matches found another way (a terminal command run inside HERMES_HOME) */
  extra?: readonly DangerousMatch[];
  /** what the approval prompt shows (default: the command) */
  shown?: string;
  /** how the refusal names what was refused: `Command` or `Code` */
  noun?: string;
}

/** Null when `command` may run (approved if it had to be), else the error result for the model. */
export async function screenCommand(
  command: string,
  context: ToolContext,
  options: ScreenOptions,
): Promise<string | null> {
  // the floor: never run, not with approval, not under --yolo, and nobody is asked
  const floor = matchPatterns(command, BLOCKED_FLOOR);
  if (floor.length > 0) {
    context.logger.warn({ command, blocked: floor.map((m) => m.key) }, 'a command of the always-blocked floor refused');
    return errorResult(
      `Blocked: ${floor.map((m) => m.description).join('; ')}. Hermes never runs this ${(options.noun ?? 'Command').toLowerCase()}, with approval or --yolo (the always-blocked floor); do not retry it.`,
      { code: 'blocked', pattern_keys: floor.map((m) => m.key) },
    );
  }
  const matches = [...matchPatterns(command, options.patterns), ...(options.extra ?? [])];
  if (matches.length === 0 || options.yolo) return null;
  const patternKeys = matches.map((m) => m.key);
  const request: ApprovalRequest = {
    command: options.shown ?? command,
    description: matches.map((m) => m.description).join('; '),
    patternKey: patternKeys[0] ?? '',
    patternKeys,
  };
  const choice = await context.requestApproval(request);
  if (approved(choice)) return null;
  const reason = choice === 'timeout' ? `approval timed out (${request.description})` : request.description;
  return errorResult(`${options.noun ?? 'Command'} denied by user: ${reason}`, { denied: true });
}
