/**
 * Text redaction: every form of each known secret (see secret-forms.ts), the credentials of any
 * `scheme://user:pass@` URL, and the SECRET_PATTERNS shapes become [REDACTED].
 *
 * Cost: the literal forms of all secrets are found with one trie regex, the spaced-out forms with
 * another (see form-matcher.ts), compiled once per redactor. The
 * wrapped-encoding pass runs only on strings with a line break right after 40 base64/hex characters
 * (found by looking at the line breaks only).
 */
import { literalMatcher, spacedMatcher } from './form-matcher.js';
import { secretForms } from './secret-forms.js';
import { REDACTED, SECRET_PATTERNS } from './secret-patterns.js';
import { mayHoldWrappedEncoding, unwrapEncoded } from './unwrap-encoded.js';

/** Literal secrets shorter than this are ignored: replacing them would shred ordinary text. */
export const MIN_LITERAL_SECRET_LENGTH = 6;

/** `://user:pass@`: the scheme stays, the credentials go (works inside JSON strings too). */
const URL_USERINFO = /:\/\/[^\s/?#@:"'<>\\]*:[^\s/?#@"'<>\\]*@/g;
const URL_REPLACEMENT = `://${REDACTED}@`;

function replaceAllForms(text: string, matchers: readonly ((text: string) => string)[]): string {
  let out = text;
  for (const matcher of matchers) out = matcher(out);
  return out;
}

/**
 * A reusable redactor for a fixed list of secrets, compiled once: build it once per process
 * (compiling costs far more than a pass) and route every chokepoint through it.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const unique = [...new Set(secrets.filter((s) => s.length >= MIN_LITERAL_SECRET_LENGTH))];
  const known = unique.length === 0 ? [] : [literalMatcher(unique.map(secretForms))];
  const all = unique.length === 0 ? [] : [...known, spacedMatcher(unique)];
  return (text) => {
    if (text.length === 0) return text;
    let out = replaceAllForms(text, all);
    if (known.length > 0 && mayHoldWrappedEncoding(out)) {
      // wrapped base64/hex: joined, searched again; kept joined only when something was found
      const joined = unwrapEncoded(out);
      const cleaned = replaceAllForms(joined, known);
      if (cleaned !== joined) out = cleaned;
    }
    if (out.includes('://')) out = out.replace(URL_USERINFO, URL_REPLACEMENT);
    for (const { pattern, replacement } of SECRET_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };
}

/** `text` with every secret form and pattern replaced by [REDACTED]. Compiles each call: prefer createRedactor. */
export function redactText(text: string, secrets: readonly string[]): string {
  return createRedactor(secrets)(text);
}
