/** One external step of `hermes update` (git, npm, the new hermes): its output kept, its failure named. */
import { spawnSync } from 'node:child_process';
import { CliExit } from '../cli-error.js';

export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in `cwd`; resolves with its output (never throws for an exit code). */
export function runStep(command: string, args: readonly string[], cwd: string): StepResult {
  const run = spawnSync(command, args, { cwd, encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
  if (run.error) return { code: 127, stdout: '', stderr: `${command}: ${run.error.message}` };
  return { code: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

/** The last lines of a step's error output, for the one-line failure. */
function tail(result: StepResult): string {
  const lines = `${result.stderr}\n${result.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(-3).join(' | ') || `exit code ${result.code}`;
}

/** Runs a step that must succeed: its stdout, or a CliExit(1) naming `what` and the step's last words. */
export function mustRun(what: string, command: string, args: readonly string[], cwd: string, after = ''): string {
  const result = runStep(command, args, cwd);
  if (result.code !== 0)
    throw new CliExit(1, `update: ${what} failed (${command} ${args.join(' ')}): ${tail(result)}${after}`);
  return result.stdout;
}
