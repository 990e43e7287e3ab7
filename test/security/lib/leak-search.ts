// Searching places (logs, state.db, messages, answers, stderr) for secrets in every form a shell
// can give them: as written, base64 (3 alignments, standard and url-safe), hex, reversed,
// URL-encoded, and wrapped or spaced out (found by searching the text with its whitespace removed).
import Database from 'better-sqlite3';

/** The base64 characters of `secret` alone when it starts `shift` bytes into an encoded text. */
function base64Core(secret: string, shift: number): string {
  const bytes = Buffer.from(secret);
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
    .toString('base64')
    .replace(/=+$/, '');
  return encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
}

/** Each form's name and text. */
export function leakForms(secret: string): Record<string, string> {
  const forms: Record<string, string> = {
    'as written': secret,
    reversed: [...secret].reverse().join(''),
    'URL-encoded': encodeURIComponent(secret),
    hex: Buffer.from(secret).toString('hex'),
    HEX: Buffer.from(secret).toString('hex').toUpperCase(),
  };
  for (const shift of [0, 1, 2]) {
    const core = base64Core(secret, shift);
    forms[`base64@${shift}`] = core;
    forms[`base64url@${shift}`] = core.replace(/\+/g, '-').replace(/\//g, '_');
  }
  return forms;
}

/** `text` without whitespace and JSON-escaped line breaks: a wrapped or spaced-out secret is whole again. */
function squeezed(text: string): string {
  return text.replace(/\s+|\\[nrt]/g, '');
}

/** Every "<secret name> (<form>) in <place>" found. */
export function findLeaks(places: Record<string, string>, secrets: Record<string, string>): string[] {
  const leaks: string[] = [];
  for (const [where, text] of Object.entries(places)) {
    const flat = squeezed(text);
    for (const [name, secret] of Object.entries(secrets)) {
      for (const [form, value] of Object.entries(leakForms(secret))) {
        if (text.includes(value)) leaks.push(`${name} (${form}) in ${where}`);
        else if (flat.includes(value)) leaks.push(`${name} (${form}, wrapped or spaced) in ${where}`);
      }
    }
  }
  return leaks;
}

/** Every text value of every table, one per line. */
export function dumpDatabase(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const out: string[] = [];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
        for (const value of Object.values(row)) if (typeof value === 'string') out.push(value);
      }
    }
    return out.join('\n');
  } finally {
    db.close();
  }
}
