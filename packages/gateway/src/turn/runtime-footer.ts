/**
 * `display.runtime_metadata_footer`: one last line on a chat answer with the turn's runtime
 * metadata, `— gpt-4o-mini · 1.2k in / 56 out · 2.3 s` (the model that answered; the prompt and
 * completion tokens the model reported, summed over the turn's steps, left out when it reported
 * none; the time from the turn's start to its answer). Off by default. The footer is display
 * only: it is never in the transcript, the history the model sees or the voice note.
 */

export interface RuntimeFooterInput {
  /** the model of the turn; empty: no model was asked (a turn refused by a limit): no footer */
  model: string;
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  durationMs: number;
}

/** 980, 1.2k, 45k, 1.3M */
export function compactCount(n: number): string {
  if (n < 1_000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1_000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** 0.4 s, 12 s, 2 min 5 s */
export function compactDuration(ms: number): string {
  const s = Math.max(0, ms) / 1_000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** The footer line, or null when there is nothing to say (no model was asked). */
export function runtimeFooter(input: RuntimeFooterInput): string | null {
  if (input.model === '') return null;
  const parts = [input.model];
  if (input.usage)
    parts.push(`${compactCount(input.usage.prompt_tokens)} in / ${compactCount(input.usage.completion_tokens)} out`);
  parts.push(compactDuration(input.durationMs));
  return `— ${parts.join(' · ')}`;
}

/** The answer with the footer as its last paragraph. */
export const withRuntimeFooter = (answer: string, footer: string | null): string =>
  footer === null ? answer : `${answer.trimEnd()}\n\n${footer}`;
