import { editDistance } from '@hermes/protocol';

/** The closest candidate to a misspelt name, or null when nothing is close. */
export function closest(input: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(3, Math.floor(input.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(input.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
