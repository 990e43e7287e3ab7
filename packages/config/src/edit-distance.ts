/** "Did you mean" suggestions for config keys, on the shared edit distance of @hermes/protocol. */
import { editDistance } from '@hermes/protocol';

export { editDistance };

/** The candidate closest to `input` when it is close enough to be a likely typo, else undefined. */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(input.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `. Did you mean "x"?` when a close candidate exists, else the empty string. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? '' : `. Did you mean "${match}"?`;
}
