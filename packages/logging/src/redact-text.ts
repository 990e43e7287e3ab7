/**
 * Text redaction in one regex pass: every form of each known secret (see secret-forms.ts), the
 * credentials of any `scheme://user:pass@` URL, and the SECRET_PATTERNS shapes become [REDACTED].
 */
import { trieSource } from './regex-trie.js';
import { secretForms } from './secret-forms.js';
import { REDACTED, SECRET_PATTERNS } from './secret-patterns.js';

/** Literal secrets shorter than this are ignored: replacing them would shred ordinary text. */
export const MIN_LITERAL_SECRET_LENGTH = 6;

/** `scheme://user:pass@`: the scheme is kept, the credentials go (works inside JSON strings too). */
const URL_USERINFO = String.raw`(?<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^\s/?#@:"'<>\\]+:[^\s/?#@"'<>\\]*@`;
/** HTTP bearer credentials: the scheme word stays (same as SECRET_PATTERNS' `bearer`). */
const BEARER = String.raw`(?<keep>\b[Bb][Ee][Aa][Rr][Ee][Rr]\s+)[A-Za-z0-9._~+/-]+=*`;

/** The patterns replaced whole (their sources have no capture groups), in one alternation. */
function patternSources(): string[] {
  return SECRET_PATTERNS.filter((p) => p.replacement === REDACTED).map((p) => p.pattern.source);
}

interface Groups {
  scheme?: string;
  keep?: string;
}

function replace(...args: unknown[]): string {
  const groups = args.at(-1) as Groups;
  if (groups.scheme !== undefined) return `${groups.scheme}${REDACTED}@`;
  if (groups.keep !== undefined) return `${groups.keep}${REDACTED}`;
  return REDACTED;
}

/** The single regex for a set of secrets (exported for the bench and tests). */
export function redactionRegExp(secrets: readonly string[]): RegExp {
  const unique = [...new Set(secrets.filter((s) => s.length >= MIN_LITERAL_SECRET_LENGTH))];
  const known = trieSource(unique.flatMap(secretForms));
  const alternatives = [...(known ? [known] : []), URL_USERINFO, BEARER, ...patternSources()];
  return new RegExp(alternatives.join('|'), 'g');
}

/**
 * A reusable redactor for a fixed list of secrets: compiled once, one pass per string. Build it
 * once per process (compiling costs far more than a pass).
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const regex = redactionRegExp(secrets);
  return (text) => (text.length === 0 ? text : text.replace(regex, replace));
}

/** `text` with every secret form and pattern replaced by [REDACTED]. Compiles each call: prefer createRedactor. */
export function redactText(text: string, secrets: readonly string[]): string {
  return createRedactor(secrets)(text);
}
