/**
 * The forms a known secret takes in text, as sequences of regex atoms (one atom per character), so
 * that many of them can be merged into one prefix-trie regex: as given, JSON-escaped, URL-encoded,
 * reversed, hex (lower and upper), base64 (standard and url-safe, at each of the 3 alignments a
 * substring of a longer encoded text can take; line wraps allowed) and spaced out (one to three
 * whitespace characters, or JSON-escaped newlines, between every character).
 */

/** A regex source fragment; a form is a list of them, matched one after another. */
export type Atom = string;

const SPACING: Atom = '(?:[ \\t\\r\\n]|\\\\[nrt]){1,3}';
/** `base64` and `xxd -p` wrap long output: a line break may come between any two characters */
const WRAP: Atom = '(?:\\r?\\n|\\\\r?\\\\n)?';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function plain(text: string): Atom[] {
  return [...text].map(escapeRegExp);
}

/** `text` with an optional line break between every two characters. */
function wrappable(text: string): Atom[] {
  return [...text].map((c, i) => (i === 0 ? escapeRegExp(c) : `${WRAP}${escapeRegExp(c)}`));
}

function spaced(text: string): Atom[] {
  return [...text].map((c, i) => (i === 0 ? escapeRegExp(c) : `${SPACING}${escapeRegExp(c)}`));
}

/**
 * The base64 characters fully determined by `bytes` when they start `shift` bytes into the encoded
 * stream (0, 1 or 2): the characters mixed with unknown neighbouring bytes are left out.
 */
export function base64Core(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
  const start = Math.ceil((shift * 8) / 6);
  const end = Math.floor(((shift + bytes.length) * 8) / 6);
  return encoded.slice(start, end);
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Every form of `secret`, deduplicated, as atom lists. */
export function secretForms(secret: string): Atom[][] {
  const bytes = Buffer.from(secret, 'utf8');
  const reversed = [...secret].reverse().join('');
  const literal = new Set<string>();
  for (const text of [secret, reversed, encodeURIComponent(secret)]) {
    literal.add(text);
    literal.add(jsonEscaped(text));
  }
  literal.add(encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  const encoded = new Set<string>([bytes.toString('hex'), bytes.toString('hex').toUpperCase()]);
  for (let shift = 0; shift < 3; shift++) {
    const core = base64Core(bytes, shift);
    encoded.add(core);
    encoded.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [
    ...[...literal].map(plain),
    ...[...encoded].filter((e) => e.length > 0).map(wrappable),
    spaced(secret),
    spaced(jsonEscaped(secret)),
  ];
}
