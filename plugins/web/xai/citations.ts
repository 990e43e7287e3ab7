/**
 * The search hits of an xAI Responses API answer: the `url_citation` annotations of its output
 * text first (the sources Grok cited, with their titles and the sentence that cites them), then
 * the other URLs of its `citations` list (every source the search looked at), each URL once.
 */
import { asArray, asObject, asObjects, asString, type SearchHitFields } from '@hermes/plugin-sdk';

/** A description longer than this is cut (the tool cuts at 1000 anyway). */
const MAX_DESCRIPTION_CHARS = 400;

/** The output_text parts of the answer's messages. */
function outputTexts(answer: Record<string, unknown>): Record<string, unknown>[] {
  return asObjects(answer.output)
    .filter((item) => asString(item.type) === 'message')
    .flatMap((item) => asObjects(item.content))
    .filter((part) => asString(part.type) === 'output_text');
}

/** Markdown links (`[[1]](https://...)`, `[text](https://...)`) as their text, citation marks dropped. */
function plainText(text: string): string {
  return text
    .replace(/\[\[\d+\]\]\([^)\s]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1')
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sentence of `text` that ends where the citation at `at` starts. */
function sentenceBefore(text: string, at: number): string {
  if (at <= 0 || at > text.length) return '';
  const before = text.slice(0, at);
  const starts = [...before.matchAll(/[.!?]\s+(?=\S)|\n/g)];
  const last = starts.at(-1);
  const sentence = plainText(before.slice(last ? (last.index ?? 0) + last[0].length : 0));
  return sentence.length > MAX_DESCRIPTION_CHARS ? `${sentence.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : sentence;
}

/** Where the inline citation of `url` is in `text` (its `](url)`), else the annotation's own index. */
function citationAt(text: string, url: string, annotation: Record<string, unknown>): number {
  const marker = text.indexOf(`](${url})`);
  if (marker >= 0) {
    const open = text.lastIndexOf('[[', marker);
    return open >= 0 ? open : text.lastIndexOf('[', marker);
  }
  return typeof annotation.start_index === 'number' ? annotation.start_index : -1;
}

function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** A source with no title of its own is named by its host. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** An annotation's title, unless it is only the citation's number (xAI titles inline citations "1", "2", ...). */
function titleOf(annotation: Record<string, unknown>): string {
  const title = plainText(asString(annotation.title));
  return /^\[*\d+\]*$/.test(title) ? '' : title;
}

/** The hits of an answer, cited sources first, at most `limit`. */
export function citationHits(answer: Record<string, unknown>, limit: number): SearchHitFields[] {
  const hits = new Map<string, SearchHitFields>();
  for (const part of outputTexts(answer)) {
    const text = asString(part.text);
    for (const annotation of asObjects(part.annotations)) {
      const url = asString(annotation.url);
      if (asString(annotation.type) !== 'url_citation' || !isWebUrl(url)) continue;
      const known = hits.get(url);
      const description = known?.description || sentenceBefore(text, citationAt(text, url, annotation));
      const title = known?.title || titleOf(annotation) || hostOf(url);
      hits.set(url, { title, url, description });
    }
  }
  for (const url of asArray(answer.citations).map(asString)) {
    if (isWebUrl(url) && !hits.has(url)) hits.set(url, { title: hostOf(url), url, description: '' });
  }
  return [...hits.values()].slice(0, limit);
}

/** The error an answer carries with HTTP 200 (`error`, or `status: "failed"`), if any. */
export function answerError(answer: Record<string, unknown>): string | null {
  const error = answer.error;
  if (typeof error === 'string' && error.trim() !== '') return error.trim();
  const e = asObject(error);
  const message = asString(e.message) || asString(e.code);
  if (message) return message;
  if (asString(answer.status) === 'failed') return 'the response failed';
  return null;
}
