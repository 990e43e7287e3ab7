// The IMAP syntax the fake IMAP server (email-imap.ts) needs, as RFC 3501 writes it: reading a
// client's command line (atoms, quoted strings, literals, parenthesized lists), sequence sets
// (`1,3:5,7:*`), and writing strings, flag lists and a message's ENVELOPE from its header lines.
import addressparser from 'nodemailer/lib/addressparser';

/** A token of a command's arguments: an atom or string (literals included), or a parenthesized list. */
export type Token = string | Token[];

/**
 * The arguments of a command, `text` being the line after the command name with each literal's
 * bytes put in `literals` and a `\uE000<n>\uE000` marker (a private-use character) in its place.
 */
export function tokenize(text: string, literals: readonly Buffer[]): Token[] {
  let i = 0;
  const list = (closing: string | null): Token[] => {
    const out: Token[] = [];
    while (i < text.length) {
      const c = text[i] as string;
      if (c === ' ') {
        i++;
      } else if (closing !== null && c === closing) {
        i++;
        return out;
      } else if (c === '(') {
        i++;
        out.push(list(')'));
      } else if (c === '"') {
        let value = '';
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\') i++;
          value += text[i] ?? '';
          i++;
        }
        i++;
        out.push(value);
      } else if (c === '\uE000') {
        const end = text.indexOf('\uE000', i + 1);
        out.push(literals[Number(text.slice(i + 1, end))]?.toString('utf8') ?? '');
        i = end + 1;
      } else {
        // an atom; a `[...]` section (BODY.PEEK[HEADER.FIELDS (A B)]) is part of it
        let value = '';
        let depth = 0;
        while (i < text.length) {
          const ch = text[i] as string;
          if (ch === '[') depth++;
          if (ch === ']') depth--;
          if (depth === 0 && (ch === ' ' || ch === '(' || ch === ')')) break;
          value += ch;
          i++;
        }
        out.push(value);
      }
    }
    return out;
  };
  return list(null);
}

/** The numbers a sequence set names among `existing` (sorted); `*` is the largest existing one. */
export function inSequenceSet(set: string, existing: readonly number[]): number[] {
  const max = existing.length === 0 ? 0 : (existing[existing.length - 1] as number);
  const value = (part: string) => (part === '*' ? max : Number(part));
  const ranges = set.split(',').map((part) => {
    const [a = '', b] = part.split(':');
    const from = value(a);
    const to = b === undefined ? from : value(b);
    return [Math.min(from, to), Math.max(from, to)] as const;
  });
  if (ranges.some(([a, b]) => !Number.isInteger(a) || !Number.isInteger(b))) throw new Error(`bad sequence set ${set}`);
  return existing.filter((n) => ranges.some(([a, b]) => n >= a && n <= b));
}

/** A string as IMAP writes it: quoted when it can be, else a literal. */
export function imapString(value: string | undefined): string {
  if (value === undefined) return 'NIL';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a string with controls or 8-bit goes as a literal
  if (/[\r\n\u0000\u0080-\uffff]/.test(value)) return `{${Buffer.byteLength(value)}}\r\n${value}`;
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export const flagList = (flags: ReadonlySet<string>): string => `(${[...flags].join(' ')})`;

/** The header block of a raw message, unfolded, by lower-case name (first value). */
export function headerValues(raw: Buffer): Map<string, string> {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const block = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const map = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!map.has(name)) map.set(name, line.slice(colon + 1).trim());
  }
  return map;
}

/** The header block of a raw message, as sent (BODY[HEADER]: the blank line included). */
export function headerBlock(raw: Buffer): Buffer {
  const text = raw.toString('latin1');
  const match = /\r?\n\r?\n/.exec(text);
  return match === null ? raw : raw.subarray(0, match.index + match[0].length);
}

function addresses(value: string | undefined): string {
  if (value === undefined || value === '') return 'NIL';
  const parsed = addressparser(value, { flatten: true });
  if (parsed.length === 0) return 'NIL';
  return `(${parsed
    .map((a) => {
      const [mailbox, host] = a.address.includes('@') ? a.address.split('@') : [a.address, undefined];
      return `(${imapString(a.name || undefined)} NIL ${imapString(mailbox)} ${imapString(host)})`;
    })
    .join('')})`;
}

/** The ENVELOPE of a message (RFC 3501 7.4.2): the raw header values, addresses parsed. */
export function envelope(raw: Buffer): string {
  const h = headerValues(raw);
  const from = h.get('from');
  return `(${[
    imapString(h.get('date')),
    imapString(h.get('subject')),
    addresses(from),
    addresses(h.get('sender') ?? from),
    addresses(h.get('reply-to') ?? from),
    addresses(h.get('to')),
    addresses(h.get('cc')),
    addresses(h.get('bcc')),
    imapString(h.get('in-reply-to')),
    imapString(h.get('message-id')),
  ].join(' ')})`;
}

/** A mail of the fake's mailbox. */
export interface FakeImapMessage {
  uid: number;
  flags: Set<string>;
  raw: Buffer;
  internalDate: Date;
}

/** The parenthesized data of a FETCH response for `items`; a BODY[] without PEEK sets \Seen (unless read-only). */
export function fetchItems(items: string, m: FakeImapMessage, readOnly: boolean, uidForm: boolean): Buffer {
  const parts: string[] = [];
  const want = (re: RegExp) => re.test(items);
  if (uidForm || want(/\bUID\b/i)) parts.push(`UID ${m.uid}`);
  if (want(/\bRFC822\.SIZE\b/i)) parts.push(`RFC822.SIZE ${m.raw.length}`);
  if (want(/\bINTERNALDATE\b/i)) parts.push(`INTERNALDATE "${m.internalDate.toUTCString()}"`);
  if (want(/\bENVELOPE\b/i)) parts.push(`ENVELOPE ${envelope(m.raw)}`);
  const body = /BODY(\.PEEK)?\[\]/i.exec(items);
  const header = /BODY(\.PEEK)?\[HEADER\]/i.exec(items);
  if (body && body[1] === undefined && !readOnly) m.flags.add('\\Seen');
  if (want(/\bFLAGS\b/i)) parts.push(`FLAGS ${flagList(m.flags)}`);
  let out = `(${parts.join(' ')}`;
  const chunks: (string | Buffer)[] = [];
  if (header) {
    const block = headerBlock(m.raw);
    chunks.push(`${out}${parts.length ? ' ' : ''}BODY[HEADER] {${block.length}}\r\n`, block);
    out = '';
  }
  if (body) {
    chunks.push(`${out}${parts.length || header ? ' ' : ''}BODY[] {${m.raw.length}}\r\n`, m.raw);
    out = '';
  }
  chunks.push(`${out})`);
  return Buffer.concat(chunks.map((x) => (typeof x === 'string' ? Buffer.from(x, 'utf8') : x)));
}
