/**
 * The new text of a reply: what the sender wrote, without the mail it quotes. A reply carries the
 * whole earlier conversation below an attribution line (`On Mon, 1 Jan 2026, Alice <a@x> wrote:`,
 * Outlook's `-----Original Message-----` or its `From: ... Sent: ...` block), and quoted lines start
 * with `>`; the model already has the earlier turns in its session, so they are dropped, and so is
 * a signature below the standard `-- ` line. Inline answers between quoted lines are kept. A mail
 * that would be left empty (only a quote) keeps its text as it was.
 */

/** an attribution line, in the languages mail clients most often write it */
const ATTRIBUTION =
  /^\s*(on|le|am|el|il|op|em|den|på)\s.{4,}\b(wrote|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|skrev)\b.*:\s*$/i;
const ATTRIBUTION_START = /^\s*(on|le|am|el|il|op|em|den|på)\s/i;
const ORIGINAL_MESSAGE =
  /^\s*-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale)\s*-{2,}\s*$/i;
const OUTLOOK_FROM = /^\s*\*?(from|von|de|da|van)\s*:\*?\s+\S/i;
const OUTLOOK_NEXT = /^\s*\*?(sent|date|gesendet|envoyé|enviado|inviato|verzonden|to|an|à|para|a)\s*:\*?\s/i;
const SIGNATURE = /^-- ?$/;

/** Where the quoted mail starts (an attribution or an Outlook header block), or -1. */
function quoteStart(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (ATTRIBUTION.test(line) || ORIGINAL_MESSAGE.test(line)) return i;
    // an attribution wrapped over two lines (Gmail wraps long ones)
    if (ATTRIBUTION_START.test(line) && ATTRIBUTION.test(`${line} ${lines[i + 1] ?? ''}`)) return i;
    if (/^\s*_{10,}\s*$/.test(line) && OUTLOOK_FROM.test(lines[i + 1] ?? '')) return i;
    if (OUTLOOK_FROM.test(line) && i > 0 && (lines[i - 1] ?? '').trim() === '') {
      const next = lines.slice(i + 1, i + 4);
      if (next.filter((l) => OUTLOOK_NEXT.test(l)).length >= 2) return i;
    }
  }
  return -1;
}

/** The reply's own text: quoted mail and signature removed, blank runs squeezed. */
export function stripQuoted(text: string): string {
  const original = text.replace(/\r\n?/g, '\n');
  let lines = original.split('\n');
  const quote = quoteStart(lines);
  if (quote !== -1) lines = lines.slice(0, quote);
  lines = lines.filter((line) => !/^\s*>/.test(line));
  const signature = lines.findIndex((line) => SIGNATURE.test(line));
  if (signature !== -1) lines = lines.slice(0, signature);
  const stripped = lines
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return stripped === '' ? original.trim() : stripped;
}
