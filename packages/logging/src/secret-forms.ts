/**
 * The forms a known secret takes in text, so that all of them can be merged into one prefix-trie
 * regex: as given, JSON-escaped, URL-encoded, reversed, hex (lower and upper), base64 (standard and
 * url-safe, at each of the 3 alignments a substring of a longer encoded text can take), one
 * character per JSON-escaped line, and (as a regex of its own) spaced out by any raw whitespace.
 */

/** A regex source fragment; a form is a list of them, matched one after another. */
export type Atom = string;

/** Between the characters of a spaced-out secret (`sed 's/./& /g'`, `fold -w1`). */
export const SPACING: Atom = '[ \\t\\r\\n]+';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The atoms of a form matched as written, one per character. */
export function plainAtoms(text: string): Atom[] {
  return [...text].map(escapeRegExp);
}

/** The atoms of `secret` spaced out by one or more whitespace characters. */
export function spacedAtoms(secret: string): Atom[] {
  return [...secret].map((c, i) => (i === 0 ? escapeRegExp(c) : `${SPACING}${escapeRegExp(c)}`));
}

/**
 * The base64 characters fully determined by `bytes` when they start `shift` bytes into the encoded
 * stream (0, 1 or 2): the characters mixed with unknown neighbouring bytes are left out.
 */
export function base64Core(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
    .toString('base64')
    .replace(/=+$/, '');
  const start = Math.ceil((shift * 8) / 6);
  const end = Math.floor(((shift + bytes.length) * 8) / 6);
  return encoded.slice(start, end);
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Every literal form of `secret`, deduplicated (the spaced-out form is `spacedAtoms`). */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const reversed = [...secret].reverse().join('');
  const forms = new Set<string>();
  for (const text of [secret, reversed, encodeURIComponent(secret)]) {
    forms.add(text);
    forms.add(jsonEscaped(text));
  }
  forms.add(encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  // one character per line, inside a JSON string (a log line): the newline is written `\n`
  forms.add([...secret].map(jsonEscaped).join('\\n'));
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    const core = base64Core(bytes, shift);
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((form) => form.length > 0);
}
