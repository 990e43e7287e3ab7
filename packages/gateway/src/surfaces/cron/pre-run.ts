/**
 * A job's pre-run script, run before each run of the job (docs/cron.md "Pre-run scripts"): only
 * with the operator's consent bound to its content (`hermes trust approve script:<name>`, read from
 * trust.json at each run), from a private copy of the very bytes that were hashed, with a scrubbed
 * environment and a timeout. Its last stdout line `{"wakeAgent": false}` skips the run; any other
 * output is given to the run. Fail-open: a script that is missing, not approved, changed since its
 * approval or failing never stops the run; each case is logged and the run is told.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { runHookProcess } from '@hermes/plugins';
import { AGENT_TERMINAL_MARKER, type Logger } from '@hermes/protocol';
import type { CronJobRow } from '@hermes/store';
import { boundText } from './bound-text.js';
import { readScript, scriptTrustId } from './script-path.js';

/** What the gateway knows of HERMES_HOME/scripts and the operator's consent to them. */
export interface CronScripts {
  /** HERMES_HOME */
  home: string;
  /** HERMES_HOME/scripts */
  dir: string;
  /** the sha256 the operator approved for `script:<name>` now (trust.json, read at each call), or undefined */
  approved(name: string): string | undefined;
  /** the gateway's environment, from which the script's scrubbed one is taken */
  env: Readonly<Record<string, string | undefined>>;
  /** default PRE_RUN_TIMEOUT_MS */
  timeoutMs?: number;
}

/** A script running longer is killed (with what it started) and counts as failed. */
export const PRE_RUN_TIMEOUT_MS = 60_000;

export type PreRunOutcome =
  /** the script said `{"wakeAgent": false}`: no turn, nothing sent */
  | { kind: 'skip'; reason: string }
  /** the run goes on, given `context` (the script's output, its failure, or why it did not run) */
  | { kind: 'run'; context: string | null };

/** The consent line: what to run so the script runs. */
export const approveHint = (name: string): string => `hermes trust approve ${scriptTrustId(name)}`;

/**
 * Reads the wake gate: the last non-empty stdout line parsed as a JSON object with a `wakeAgent`
 * key. Only `wakeAgent: false` exactly skips; the gate line itself is not part of the output.
 */
export function wakeGate(stdout: string): { skip: boolean; output: string } {
  const lines = stdout.trimEnd().split('\n');
  const last = lines.at(-1)?.trim() ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    return { skip: false, output: stdout.trim() };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('wakeAgent' in parsed)) {
    return { skip: false, output: stdout.trim() };
  }
  return { skip: parsed.wakeAgent === false, output: lines.slice(0, -1).join('\n').trim() };
}

const LOCALE = /^LC_[A-Z_]+$/;
const PASSED = ['PATH', 'HOME', 'LANG', 'TERM', 'TZ'];

/** The script's environment: PATH, HOME, LANG, TERM, TZ, LC_*, HERMES_HOME, the job's id; no keys or tokens. */
export function scriptEnv(scripts: CronScripts, job: CronJobRow): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(scripts.env)) {
    if (value !== undefined && (PASSED.includes(name) || LOCALE.test(name))) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.HERMES_HOME = scripts.home;
  env.HERMES_CRON_JOB_ID = job.id;
  // as the agent's terminal commands: it cannot record consent (hermes trust approve refuses)
  env[AGENT_TERMINAL_MARKER] = '1';
  return env;
}

/** How a script file runs, by its extension: bash, python3, node, or itself (its #! line). */
export function scriptArgv(file: string): string[] {
  const ext = extname(file).toLowerCase();
  if (ext === '.sh' || ext === '.bash') return ['bash', file];
  if (ext === '.py') return ['python3', file];
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return [process.execPath, file];
  return [file];
}

/** Runs the job's script (when it has one) and says whether the run goes on; never throws. */
export async function preRun(
  scripts: CronScripts | undefined,
  job: CronJobRow,
  logger: Logger,
): Promise<PreRunOutcome> {
  const name = job.script;
  if (name === null) return { kind: 'run', context: null };
  const notRun = (why: string): PreRunOutcome => {
    logger.warn(
      { script: name },
      `cron job ${job.id}: pre-run script ${name} not run: ${why}; the agent runs without it`,
    );
    return { kind: 'run', context: `The pre-run script ${name} was not run: ${why}.` };
  };
  if (scripts === undefined) return notRun('this gateway runs no scripts');
  const read = readScript(scripts.dir, name);
  if ('error' in read) return notRun(`${scripts.dir}/${name} ${read.error}`);
  const approved = scripts.approved(name);
  if (approved !== read.sha256) {
    const state = approved === undefined ? 'not approved' : 'changed since it was approved';
    return notRun(`${state} (sha256 ${read.sha256.slice(0, 12)}); run \`${approveHint(name)}\``);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'hermes-cron-script-'));
  try {
    // the bytes that were hashed are the bytes that run: an edit after the check changes nothing
    const copy = join(tmp, name);
    writeFileSync(copy, read.bytes, { mode: 0o700 });
    const timeoutMs = scripts.timeoutMs ?? PRE_RUN_TIMEOUT_MS;
    const result = await runHookProcess(scriptArgv(copy), '', {
      cwd: scripts.dir,
      timeoutMs,
      env: scriptEnv(scripts, job),
    });
    if (result.outcome === 'exit' && result.exitCode === 0) {
      const gate = wakeGate(result.stdout);
      if (gate.skip) {
        const reason = `not woken: the pre-run script ${name} said {"wakeAgent": false}`;
        logger.info({ script: name }, `cron job ${job.id}: ${reason}`);
        return { kind: 'skip', reason };
      }
      const context =
        gate.output === '' ? null : `The output of the pre-run script ${name}:\n${boundText(gate.output)}`;
      return { kind: 'run', context };
    }
    const how =
      result.outcome === 'timeout'
        ? `timed out after ${Math.round(timeoutMs / 1000)} s`
        : result.outcome === 'spawn_error'
          ? `could not start (${result.error ?? 'unknown error'})`
          : result.signal !== null
            ? `was killed by ${result.signal}`
            : `exited with code ${result.exitCode}`;
    const detail = (result.stderr.trim() || result.stdout.trim()).split('\n').at(-1) ?? '';
    logger.warn(
      { script: name, exitCode: result.exitCode, outcome: result.outcome },
      `cron job ${job.id}: pre-run script ${name} failed (${how}); the agent runs anyway${detail ? `: ${detail}` : ''}`,
    );
    const output = [result.stdout.trim(), result.stderr.trim()].filter((t) => t !== '').join('\n');
    return {
      kind: 'run',
      context: `The pre-run script ${name} failed (${how})${output ? `; its output:\n${boundText(output)}` : '.'}`,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
