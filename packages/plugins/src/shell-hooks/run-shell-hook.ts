/**
 * One firing of one shell hook: matcher check, script-content check, the process with the wire
 * payload on stdin, and its stdout parsed into the typed result for the hook's kind. Problems
 * (non-zero exit, timeout, invalid JSON, ...) are reported, never thrown.
 */
import { HOOKS, type HookName, type HookPayloads, type HookTable } from '@hermes/protocol';
import {
  emptyShellResult,
  excerpt,
  type ParsedShellResponse,
  parseShellResponse,
  type ShellResultByKind,
} from './parse-response.js';
import type { ShellHookSpec } from './read-shell-hooks.js';
import { type HookProcessResult, runHookProcess } from './run-hook-process.js';
import { type HookScript, hashFile } from './script-file.js';
import { toolNameOf } from './tool-events.js';
import { serializeWirePayload, wirePayload } from './wire-payload.js';

export interface RunShellHookOptions {
  /** the agent's working directory: the process's cwd and the payload's `cwd` */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /**
   * The script as consented. When given, the script's content is checked before every run and a
   * hook whose script changed since is not run.
   */
  consentedScript?: HookScript | null;
}

/** The typed result of hook K. */
export type ShellHookResult<K extends HookName> = ShellResultByKind[HookTable[K]['kind']];

export interface ShellHookReport<K extends HookName> {
  /** false when the matcher did not match or the script changed (nothing was spawned) */
  ran: boolean;
  /** the JSON text written to stdin (empty when not run) */
  input: string;
  process: HookProcessResult | null;
  response: ParsedShellResponse<ShellHookResult<K>>;
  /** why the output was ignored or the hook not run, or null */
  problem: string | null;
}

function processProblem(result: HookProcessResult, timeoutS: number): string | null {
  switch (result.outcome) {
    case 'spawn_error':
      return `could not start: ${result.error ?? 'unknown error'}`;
    case 'timeout':
      return `timed out after ${timeoutS} s; killed`;
    case 'exit': {
      if (result.exitCode === 0) return null;
      const how =
        result.exitCode === null
          ? `was killed by ${result.signal ?? 'a signal'}`
          : `exited with code ${result.exitCode}`;
      const tail = result.stderr.trim() === '' ? '' : `: ${excerpt(result.stderr)}`;
      return `${how}${tail}`;
    }
  }
}

/** Fires `spec` once with `payload`; resolves with what happened. */
export async function runShellHook<K extends HookName>(
  spec: ShellHookSpec,
  event: K,
  payload: HookPayloads[K],
  options: RunShellHookOptions,
): Promise<ShellHookReport<K>> {
  const kind: HookTable[K]['kind'] = HOOKS[event].kind;
  const none = (problem: string | null): ShellHookReport<K> => ({
    ran: false,
    input: '',
    process: null,
    response: { result: emptyShellResult(kind), json: undefined, problem: null },
    problem,
  });
  if (spec.matcherRegex !== null && !spec.matcherRegex.test(toolNameOf(payload) ?? '')) return none(null);
  const consented = options.consentedScript;
  if (consented !== undefined && consented !== null && hashFile(consented.path) !== consented.sha256) {
    return none(`script ${consented.path} changed since it was allowed; not run (restart Hermes to approve it again)`);
  }
  const input = serializeWirePayload(wirePayload(event, payload, options.cwd));
  const result = await runHookProcess(spec.argv, input, {
    cwd: options.cwd,
    timeoutMs: spec.timeoutS * 1000,
    ...(options.env ? { env: options.env } : {}),
  });
  const failed = processProblem(result, spec.timeoutS);
  if (failed !== null) {
    return {
      ran: true,
      input,
      process: result,
      response: { result: emptyShellResult(kind), json: undefined, problem: null },
      problem: failed,
    };
  }
  const response = parseShellResponse(kind, result.stdout, `shell hook ${spec.command}`);
  return { ran: true, input, process: result, response, problem: response.problem };
}
