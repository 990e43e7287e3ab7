/**
 * A model endpoint's error body, made short enough for one line: a non-OpenAI server (a proxy, a
 * web server on the wrong port) answers with an HTML page, of which only the title says anything.
 */

/** Characters kept of an HTML page's title or first text line. */
export const HTML_SUMMARY_CHARS = 60;
/** Characters kept of any other error text. */
export const TEXT_SUMMARY_CHARS = 300;

const HTML = /<\s*(!doctype\s+html|html|head|body|title)\b/i;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function decode(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** `<title>` of an HTML page, else its first line of text; other text on one line; both clipped. */
export function summarizeErrorText(text: string): string {
  if (!HTML.test(text)) return clip(text.replace(/\s+/g, ' ').trim(), TEXT_SUMMARY_CHARS);
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const fromTitle = title ? decode(title).replace(/\s+/g, ' ').trim() : '';
  if (fromTitle) return `HTML page "${clip(fromTitle, HTML_SUMMARY_CHARS)}"`;
  const body = text
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, '\n')
    .split('\n')
    .map((line) => decode(line).replace(/\s+/g, ' ').trim())
    .find((line) => line.length > 0);
  return body ? `HTML page "${clip(body, HTML_SUMMARY_CHARS)}"` : 'an HTML page';
}
