/** The interactive shell-hook consent prompt (y/N on the terminal), used by commands that run the agent. */
import { createInterface } from 'node:readline/promises';
import type { ConsentPrompt, ConsentRequest } from '@hermes/plugins';
import { CliExit } from './cli-error.js';

/** The question shown for one hook. */
export function consentQuestion(request: ConsentRequest): string {
  const lines = [
    `Shell hook for ${request.event}${request.matcher === null ? '' : ` (matcher: ${request.matcher})`}:`,
    `  command: ${request.command}`,
  ];
  if (request.script !== null) {
    lines.push(`  script:  ${request.script.path} (sha256 ${request.script.sha256?.slice(0, 12) ?? 'unreadable'})`);
  }
  if (request.state === 'script_changed') lines.push('  The script changed since you allowed it.');
  lines.push('It runs with your permissions every time the event fires. Allow it? [y/N] ');
  return lines.join('\n');
}

/** True when a person can answer: stdin and stderr are both terminals. */
export function canPrompt(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** Asks on stderr, reads the answer from stdin; anything but y/yes is no; Ctrl+C quits (exit 130). */
export const terminalConsentPrompt: ConsentPrompt = async (request) => {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const interrupted = new AbortController();
  rl.on('SIGINT', () => interrupted.abort());
  try {
    // readline redraws only the last line of a prompt: the details go out first
    const lines = consentQuestion(request).split('\n');
    const question = lines.pop() ?? '';
    process.stderr.write(lines.map((line) => `${line}\n`).join(''));
    const answer = await rl.question(question, { signal: interrupted.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch (error) {
    if (interrupted.signal.aborted) throw new CliExit(130, 'interrupted');
    throw error;
  } finally {
    rl.close();
  }
};
