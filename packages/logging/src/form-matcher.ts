/**
 * Finding many secret forms in a string with few, small regexes: each form is looked for by its
 * first KEY_LENGTH characters (all keys merged into prefix tries), and where a key matches, the
 * rest of the form is checked in place. A long secret (a private key) thus costs the regex no more
 * than a short one; when only its beginning is there (cut by an output cap), that is still redacted.
 */
import { trieSource } from './regex-trie.js';
import { type Atom, escapeRegExp, plainAtoms, SPACING, spacedAtoms } from './secret-forms.js';
import { REDACTED } from './secret-patterns.js';

export const KEY_LENGTH = 40;
/** V8 optimizes (Boyer-Moore, native code) only regexes below a size limit: keep each source under this. */
const MAX_SOURCE = 16_000;

/** The trie regexes for the forms of each secret (one list of forms per secret): usually one. */
export function compileTries(perSecret: readonly (readonly (readonly Atom[])[])[]): RegExp[] {
  const regexes: RegExp[] = [];
  let group: (readonly Atom[])[] = [];
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
    if (group.length > 0 && size + added > MAX_SOURCE) flush();
    group.push(...forms);
    size += added;
  }
  flush();
  return regexes;
}

/** Where a key matched at `start`, the end of the whole form (the key's end when the rest is absent). */
type Extend = (text: string, key: string, end: number) => number;

function replaceMatches(text: string, regex: RegExp, extend: Extend): string {
  regex.lastIndex = 0;
  let match = regex.exec(text);
  if (match === null) return text;
  let out = '';
  let last = 0;
  while (match !== null) {
    const end = extend(text, match[0], match.index + match[0].length);
    out += text.slice(last, match.index) + REDACTED;
    last = end;
    regex.lastIndex = end;
    match = regex.exec(text);
  }
  return out + text.slice(last);
}

function sharedLength(text: string, at: number, rest: string): number {
  let n = 0;
  while (n < rest.length && text.charCodeAt(at + n) === rest.charCodeAt(n)) n++;
  return n;
}

function split(text: string): [key: string, rest: string] {
  const chars = [...text];
  return [chars.slice(0, KEY_LENGTH).join(''), chars.slice(KEY_LENGTH).join('')];
}

/** Replaces every literal form (one list per secret) with [REDACTED]. */
export function literalMatcher(formsPerSecret: readonly (readonly string[])[]): (text: string) => string {
  const rests = new Map<string, string[]>();
  const keysPerSecret = formsPerSecret.map((forms) => {
    const keys = new Set<string>();
    for (const form of forms) {
      const [key, rest] = split(form);
      keys.add(key);
      const list = rests.get(key) ?? [];
      if (rest !== '') list.push(rest);
      rests.set(key, list);
    }
    return [...keys].map(plainAtoms);
  });
  for (const list of rests.values()) list.sort((a, b) => b.length - a.length);
  const regexes = compileTries(keysPerSecret);
  const extend: Extend = (text, key, end) => {
    // the whole rest, or as much of it as is there (a long secret cut by an output cap)
    let best = 0;
    for (const rest of rests.get(key) ?? []) {
      if (text.startsWith(rest, end)) return end + rest.length;
      best = Math.max(best, sharedLength(text, end, rest));
    }
    return end + best;
  };
  return (text) => regexes.reduce((out, regex) => replaceMatches(out, regex, extend), text);
}

/**
 * Replaces every secret spaced out by whitespace between its characters with [REDACTED] (whitespace
 * inside the secret itself counts as spacing).
 */
export function spacedMatcher(secrets: readonly string[]): (text: string) => string {
  const byKey = new Map<string, { rest: string; regex: RegExp | null }[]>();
  for (const secret of secrets) {
    // the secret's own whitespace is part of the spacing
    const [key, rest] = split(secret.replace(/[ \t\r\n]+/g, ''));
    if (key.length < 2) continue;
    const list = byKey.get(key) ?? [];
    if (rest !== '') list.push({ rest, regex: null });
    byKey.set(key, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => b.rest.length - a.rest.length);
  const regexes = compileTries([...byKey.keys()].map((key) => [spacedAtoms(key)]));
  const extend: Extend = (text, matched, end) => {
    for (const tail of byKey.get(matched.replace(/[ \t\r\n]+/g, '')) ?? []) {
      // compiled on first need: long spaced-out secrets are rare
      tail.regex ??= new RegExp([...tail.rest].map((c) => `${SPACING}${escapeRegExp(c)}`).join(''), 'y');
      tail.regex.lastIndex = end;
      if (tail.regex.test(text)) return tail.regex.lastIndex;
    }
    return end;
  };
  return (text) => regexes.reduce((out, regex) => replaceMatches(out, regex, extend), text);
}
