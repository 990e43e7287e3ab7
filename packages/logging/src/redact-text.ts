/** Text redaction: known secrets (as given and JSON-escaped) and SECRET_PATTERNS become [REDACTED]. */
import { REDACTED, SECRET_PATTERNS } from './secret-patterns.js';

/** Literal secrets shorter than this are ignored: replacing them would shred ordinary text. */
export const MIN_LITERAL_SECRET_LENGTH = 6;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms a secret takes in text: as is, and escaped inside a JSON string. */
function literalForms(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped === secret ? [secret] : [secret, escaped];
}

/** A reusable redactor for a fixed list of literal secrets (compiled once). */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const forms = [...new Set(secrets.filter((s) => s.length >= MIN_LITERAL_SECRET_LENGTH).flatMap(literalForms))];
  // Longest first, so a secret that contains another is replaced whole.
  forms.sort((a, b) => b.length - a.length);
  const literals = forms.length === 0 ? null : new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  return (text) => {
    let out = literals === null ? text : text.replace(literals, REDACTED);
    for (const { pattern, replacement } of SECRET_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };
}

/** `text` with every literal secret and every SECRET_PATTERNS match replaced by [REDACTED]. */
export function redactText(text: string, secrets: readonly string[]): string {
  return createRedactor(secrets)(text);
}
