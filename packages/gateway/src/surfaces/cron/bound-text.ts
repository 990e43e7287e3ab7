/** The bound on text a scheduled run is given from elsewhere: a pre-run script's output, an upstream job's answer. */

/** At most this many characters of each are given to a run. */
export const CONTEXT_MAX_CHARS = 8_000;

/** `text` cut to `max` characters, saying how much was left out. */
export function boundText(text: string, max: number = CONTEXT_MAX_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters cut]`;
}
