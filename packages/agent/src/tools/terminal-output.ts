import { capOutput } from './cap-output.js';
import { stripAnsi } from './strip-ansi.js';

/** Replaces secrets in `text`; the terminal tool's default leaves text unchanged. */
export type Redactor = (text: string, secrets: string[]) => string;

/** The post-hook part of the terminal output pipeline: cap to `maxChars`, strip ANSI, redact `secrets`. */
export function finishTerminalOutput(text: string, maxChars: number, redact: Redactor, secrets: string[]): string {
  return redact(stripAnsi(capOutput(text, maxChars)), secrets);
}
