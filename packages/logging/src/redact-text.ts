/**
 * Text redaction: every form of each known secret (see secret-forms.ts), the credentials of any
 * `scheme://user:pass@` URL, and the SECRET_PATTERNS shapes become [REDACTED].
 *
 * Cost: the literal forms of all secrets are merged into one trie regex, the spaced-out forms into
 * another (more only past V8's size limit for optimized regexes), compiled once per redactor. The
 * wrapped-encoding pass runs only on strings with a line break right after 40 base64/hex characters
 * (found by looking at the line breaks only).
 */
import { trieSource } from './regex-trie.js';
import { plainAtoms, secretForms, spacedAtoms } from './secret-forms.js';
import { REDACTED, SECRET_PATTERNS } from './secret-patterns.js';
import { mayHoldWrappedEncoding, unwrapEncoded } from './unwrap-encoded.js';

/** Literal secrets shorter than this are ignored: replacing them would shred ordinary text. */
export const MIN_LITERAL_SECRET_LENGTH = 6;

/** `://user:pass@`: the scheme stays, the credentials go (works inside JSON strings too). */
const URL_USERINFO = /:\/\/[^\s/?#@:"'<>\\]*:[^\s/?#@"'<>\\]*@/g;
const URL_REPLACEMENT = `://${REDACTED}@`;

/** V8 optimizes (Boyer-Moore, native code) only regexes with a shorter source than about 20 KB. */
const MAX_SOURCE = 16_000;

/**
 * The trie regexes for the forms of each secret (one list of forms per secret), as few as the size
 * limit allows: usually one; more only with many long secrets.
 */
function compileTries(perSecret: readonly (readonly (readonly string[])[])[]): RegExp[] {
  const regexes: RegExp[] = [];
  let group: (readonly string[])[] = [];
  // the sum of the forms' sources bounds the trie's (shared prefixes only shrink it)
  let size = 0;
  const flush = () => {
    if (group.length > 0) regexes.push(new RegExp(trieSource(group), 'g'));
    group = [];
    size = 0;
  };
  for (const forms of perSecret) {
    if (forms.length === 0) continue;
    const added = forms.reduce((n, form) => n + form.reduce((m, atom) => m + atom.length, 1), 0);
    if (group.length > 0 && size + added > MAX_SOURCE) {
      // the bound is loose: measure the real trie before starting another regex
      const real = trieSource([...group, ...forms]).length;
      if (real > MAX_SOURCE) flush();
      else size = real - added;
    }
    group.push(...forms);
    size += added;
  }
  flush();
  return regexes;
}

/** The regexes for a set of secrets: every literal form in tries, and the spaced-out forms. */
export function secretRegExps(secrets: readonly string[]): { known: RegExp[]; spaced: RegExp[] } {
  const unique = [...new Set(secrets.filter((s) => s.length >= MIN_LITERAL_SECRET_LENGTH))];
  return {
    known: compileTries(unique.map((secret) => secretForms(secret).map(plainAtoms))),
    spaced: compileTries(unique.map((secret) => [spacedAtoms(secret)])),
  };
}

function replaceAll(text: string, regexes: readonly RegExp[]): string {
  let out = text;
  for (const regex of regexes) out = out.replace(regex, REDACTED);
  return out;
}

/**
 * A reusable redactor for a fixed list of secrets, compiled once: build it once per process
 * (compiling costs far more than a pass) and route every chokepoint through it.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const { known, spaced } = secretRegExps(secrets);
  return (text) => {
    if (text.length === 0) return text;
    let out = replaceAll(replaceAll(text, known), spaced);
    if (known.length > 0 && mayHoldWrappedEncoding(out)) {
      // wrapped base64/hex: joined, searched again; kept joined only when something was found
      const joined = unwrapEncoded(out);
      const cleaned = replaceAll(joined, known);
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
