/**
 * Runs the built CLI on a terminal (util-linux `script` gives it a pty) and answers its prompts
 * as they appear: each step waits until the output since the previous answer holds `prompt`, then
 * types `answer` (a line). stdout and stderr come back together, without carriage returns.
 */
import { spawn } from 'node:child_process';
import { HERMES_BIN, type RunResult } from './run-hermes.js';

export interface TtyStep {
  /** text the CLI prints before it reads this answer */
  prompt: string | RegExp;
  /** the line to type; a function gets the output so far (to pick a number from a list) */
  answer: string | ((output: string) => string);
}

export function runOnTtyScripted(
  args: readonly string[],
  env: Record<string, string>,
  steps: readonly TtyStep[],
  timeoutMs = 30_000,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|HERMES_)/.test(k)) base[k] = v;
    const quoted = [process.execPath, HERMES_BIN, ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...base, ...env, TERM: 'dumb' } });
    let out = '';
    let from = 0;
    let step = 0;
    const advance = () => {
      const next = steps[step];
      if (!next) return;
      const seen = out.slice(from).replace(/\r/g, '');
      const found = typeof next.prompt === 'string' ? seen.includes(next.prompt) : next.prompt.test(seen);
      if (!found) return;
      step += 1;
      from = out.length;
      const text = typeof next.answer === 'function' ? next.answer(out.replace(/\r/g, '')) : next.answer;
      child.stdin.write(`${text}\n`);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      advance();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: out.replace(/\r/g, ''), stderr: step < steps.length ? `stopped at step ${step}` : '' });
    });
  });
}

/** The number a numbered list line (`  12. ...label...`) gives `label`, from the last list printed. */
export function numberOf(output: string, label: RegExp): string {
  const lines = output.split('\n').filter((l) => /^\s*\d+\. /.test(l) && label.test(l));
  const line = lines.at(-1);
  if (!line) throw new Error(`no numbered line matching ${label} in:\n${output}`);
  return (/^\s*(\d+)\. /.exec(line) as RegExpExecArray)[1] as string;
}
