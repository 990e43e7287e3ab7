/**
 * `MEDIA: <absolute path or https URL>` lines of an answer: taken out of the text (outside code
 * fences, where they are only shown) and returned in order. An answer without "MEDIA:" costs one
 * substring search.
 */

const MEDIA_LINE = /^[ \t]*MEDIA:[ \t]*(\S(?:.*\S)?)[ \t]*$/;
const FENCE = /^[ \t]*(```|~~~)/;

export interface MediaLines {
  /** the answer without its MEDIA lines */
  text: string;
  /** each line's reference (a path or URL), as written */
  refs: string[];
}

/** Splits the MEDIA lines off an answer. */
export function extractMediaLines(answer: string): MediaLines {
  if (!answer.includes('MEDIA:')) return { text: answer, refs: [] };
  const refs: string[] = [];
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of answer.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) fence = fence === null ? marker : fence === marker ? null : fence;
    const ref = fence === null ? MEDIA_LINE.exec(line.replace(/\r$/, ''))?.[1] : undefined;
    if (ref === undefined) kept.push(line);
    else refs.push(ref.replace(/^[`"'<]+|[`"'>]+$/g, ''));
  }
  if (refs.length === 0) return { text: answer, refs };
  return {
    text: kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    refs,
  };
}
