// A fake IMAP4rev1 server on 127.0.0.1 (RFC 3501, with IDLE, NAMESPACE, UIDPLUS, LITERAL+ and
// AUTH=PLAIN), enough for imapflow and the email adapter: CAPABILITY, LOGIN and AUTHENTICATE PLAIN
// (with its continuation), NAMESPACE, LIST, SELECT/EXAMINE with UIDVALIDITY and UIDNEXT, IDLE with
// EXISTS pushed as mail arrives, FETCH and UID FETCH of UID/FLAGS/RFC822.SIZE/INTERNALDATE/
// ENVELOPE/BODY[]/BODY[HEADER] (PEEK or not: a BODY[] without PEEK sets \Seen), STORE and UID STORE
// of flags (.SILENT too), SEARCH and UID SEARCH (ALL, SEEN, UNSEEN, DELETED, UNDELETED, UID), NOOP,
// CLOSE, LOGOUT. One mailbox, INBOX; every command is recorded. Tests deliver mail, drop the
// connections, refuse logins, and renumber the mailbox (a new UIDVALIDITY).
import { createServer, type Socket } from 'node:net';
import type { FakeImapMessage } from './email-imap-syntax.js';
import { fetchItems, flagList, inSequenceSet, type Token, tokenize } from './email-imap-syntax.js';

export type { FakeImapMessage } from './email-imap-syntax.js';

export interface ImapCommand {
  connection: number;
  tag: string;
  /** upper case, `UID FETCH` for the UID forms */
  name: string;
  /** the rest of the line (a literal shown as {n}) */
  args: string;
}

export interface FakeImap {
  host: string;
  port: number;
  user: string;
  password: string;
  uidValidity(): number;
  messages: FakeImapMessage[];
  commands: ImapCommand[];
  /** appends a mail to INBOX (as an MTA delivers it); returns its UID */
  deliver(raw: Buffer | string, flags?: string[]): number;
  /** destroys every open connection */
  dropConnections(): void;
  /** logins answer NO [AUTHENTICATIONFAILED] while true */
  refuseLogins(refuse: boolean): void;
  /** a new UIDVALIDITY: every mail gets a new UID from 1 */
  renumber(): void;
  connectionsOpened(): number;
  openConnections(): number;
  /** connections in IDLE right now */
  idling(): number;
  /** clears the recorded commands and the login refusal (mail and connections stay) */
  reset(): void;
  close(): Promise<void>;
}

interface Conn {
  id: number;
  socket: Socket;
  state: 'notauth' | 'auth' | 'selected';
  readOnly: boolean;
  /** the EXISTS count this connection was told */
  known: number;
  idleTag: string | undefined;
  /** an AUTHENTICATE PLAIN waiting for its continuation */
  authTag: string | undefined;
}

const CAPABILITIES = 'IMAP4rev1 LITERAL+ IDLE NAMESPACE UIDPLUS AUTH=PLAIN';

export async function startFakeImap(options: { user?: string; password?: string } = {}): Promise<FakeImap> {
  const user = options.user ?? 'bot@example.test';
  const password = options.password ?? 'imap-secret';
  const messages: FakeImapMessage[] = [];
  const commands: ImapCommand[] = [];
  const conns = new Set<Conn>();
  let validity = 1_700_000_000;
  let uidNext = 1;
  let opened = 0;
  let refusing = false;

  const write = (c: Conn, text: string | Buffer) => {
    if (!c.socket.destroyed) c.socket.write(text);
  };
  /** tells a selected connection how many mails there are now (before a tagged answer, or at once in IDLE) */
  const sync = (c: Conn) => {
    if (c.state === 'selected' && c.known !== messages.length) {
      c.known = messages.length;
      write(c, `* ${messages.length} EXISTS\r\n* 0 RECENT\r\n`);
    }
  };
  const done = (c: Conn, tag: string, text: string) => {
    sync(c);
    write(c, `${tag} ${text}\r\n`);
  };

  const uids = () => messages.map((m) => m.uid);
  const seqs = () => messages.map((_m, i) => i + 1);
  const select = (set: string, uidForm: boolean): { m: FakeImapMessage; seq: number }[] => {
    const chosen = new Set(inSequenceSet(set, uidForm ? uids() : seqs()));
    return messages.map((m, i) => ({ m, seq: i + 1 })).filter(({ m, seq }) => chosen.has(uidForm ? m.uid : seq));
  };

  function search(tokens: Token[], uidForm: boolean): number[] {
    let found = messages.map((m, i) => ({ m, seq: i + 1 }));
    for (let i = 0; i < tokens.length; i++) {
      const key = String(tokens[i]).toUpperCase();
      if (key === 'ALL') continue;
      else if (key === 'SEEN') found = found.filter(({ m }) => m.flags.has('\\Seen'));
      else if (key === 'UNSEEN') found = found.filter(({ m }) => !m.flags.has('\\Seen'));
      else if (key === 'DELETED') found = found.filter(({ m }) => m.flags.has('\\Deleted'));
      else if (key === 'UNDELETED') found = found.filter(({ m }) => !m.flags.has('\\Deleted'));
      else if (key === 'UID') {
        const set = new Set(inSequenceSet(String(tokens[++i]), uids()));
        found = found.filter(({ m }) => set.has(m.uid));
      } else throw new Error(`search key ${key} is not supported`);
    }
    return found.map(({ m, seq }) => (uidForm ? m.uid : seq));
  }

  function store(c: Conn, tag: string, tokens: Token[], uidForm: boolean): void {
    const [set = '', op = '', list] = tokens;
    const flags = (Array.isArray(list) ? list : [list]).map(String).filter(Boolean);
    const what = String(op).toUpperCase();
    for (const { m, seq } of select(String(set), uidForm)) {
      if (what.startsWith('+')) for (const f of flags) m.flags.add(f);
      else if (what.startsWith('-')) for (const f of flags) m.flags.delete(f);
      else m.flags = new Set(flags);
      if (!what.endsWith('.SILENT'))
        write(c, `* ${seq} FETCH (${uidForm ? `UID ${m.uid} ` : ''}FLAGS ${flagList(m.flags)})\r\n`);
    }
    done(c, tag, `OK ${uidForm ? 'UID ' : ''}STORE completed`);
  }

  function login(c: Conn, tag: string, ok: boolean): void {
    if (!ok || refusing) {
      done(c, tag, 'NO [AUTHENTICATIONFAILED] Invalid credentials');
      return;
    }
    c.state = 'auth';
    done(c, tag, `OK [CAPABILITY ${CAPABILITIES}] Logged in`);
  }

  function run(c: Conn, tag: string, name: string, rest: string, literals: Buffer[]): void {
    const tokens = tokenize(rest, literals);
    const arg = (i: number) => String(tokens[i] ?? '');
    const needAuth = c.state === 'notauth' && !['CAPABILITY', 'NOOP', 'LOGOUT', 'LOGIN', 'AUTHENTICATE'].includes(name);
    const needSelected = c.state !== 'selected' && /^(UID |)(FETCH|STORE|SEARCH)$|^CLOSE$|^IDLE$/.test(name);
    if (needAuth || needSelected) {
      done(c, tag, `BAD ${name} not allowed now`);
      return;
    }
    switch (name) {
      case 'CAPABILITY':
        write(c, `* CAPABILITY ${CAPABILITIES}\r\n`);
        done(c, tag, 'OK CAPABILITY completed');
        return;
      case 'NOOP':
        done(c, tag, 'OK NOOP completed');
        return;
      case 'LOGOUT':
        write(c, '* BYE Logging out\r\n');
        write(c, `${tag} OK LOGOUT completed\r\n`);
        c.socket.end();
        return;
      case 'LOGIN':
        login(c, tag, arg(0) === user && arg(1) === password);
        return;
      case 'AUTHENTICATE': {
        if (arg(0).toUpperCase() !== 'PLAIN') {
          done(c, tag, 'NO Unsupported mechanism');
          return;
        }
        if (tokens.length > 1) {
          plain(c, tag, arg(1));
          return;
        }
        c.authTag = tag;
        write(c, '+ \r\n');
        return;
      }
      case 'NAMESPACE':
        write(c, '* NAMESPACE (("" "/")) NIL NIL\r\n');
        done(c, tag, 'OK NAMESPACE completed');
        return;
      case 'LIST':
        if (arg(1) === '') write(c, '* LIST (\\Noselect) "/" ""\r\n');
        else if (/^(inbox|\*|%)$/i.test(arg(1))) write(c, '* LIST (\\HasNoChildren) "/" INBOX\r\n');
        done(c, tag, 'OK LIST completed');
        return;
      case 'SELECT':
      case 'EXAMINE': {
        if (arg(0).toUpperCase() !== 'INBOX') {
          c.state = 'auth';
          done(c, tag, 'NO [NONEXISTENT] Mailbox does not exist');
          return;
        }
        c.state = 'selected';
        c.readOnly = name === 'EXAMINE';
        c.known = messages.length;
        const unseen = messages.findIndex((m) => !m.flags.has('\\Seen'));
        write(
          c,
          '* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)\r\n' +
            '* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft \\*)] Flags permitted\r\n' +
            `* ${messages.length} EXISTS\r\n* 0 RECENT\r\n` +
            (unseen === -1 ? '' : `* OK [UNSEEN ${unseen + 1}] First unseen\r\n`) +
            `* OK [UIDVALIDITY ${validity}] UIDs valid\r\n* OK [UIDNEXT ${uidNext}] Predicted next UID\r\n`,
        );
        done(c, tag, `OK [${c.readOnly ? 'READ-ONLY' : 'READ-WRITE'}] ${name} completed`);
        return;
      }
      case 'CLOSE':
        c.state = 'auth';
        done(c, tag, 'OK CLOSE completed');
        return;
      case 'IDLE':
        c.idleTag = tag;
        write(c, '+ idling\r\n');
        sync(c);
        return;
      case 'FETCH':
      case 'UID FETCH': {
        const uidForm = name === 'UID FETCH';
        const items = rest.slice(arg(0).length).trim();
        for (const { m, seq } of select(arg(0), uidForm)) {
          write(
            c,
            Buffer.concat([
              Buffer.from(`* ${seq} FETCH `),
              fetchItems(items, m, c.readOnly, uidForm),
              Buffer.from('\r\n'),
            ]),
          );
        }
        done(c, tag, `OK ${name} completed`);
        return;
      }
      case 'STORE':
      case 'UID STORE':
        store(c, tag, tokens, name === 'UID STORE');
        return;
      case 'SEARCH':
      case 'UID SEARCH':
        write(
          c,
          `* SEARCH${search(tokens, name === 'UID SEARCH')
            .map((n) => ` ${n}`)
            .join('')}\r\n`,
        );
        done(c, tag, `OK ${name} completed`);
        return;
      default:
        done(c, tag, `BAD Unknown command ${name}`);
        return;
    }
  }

  function plain(c: Conn, tag: string, base64: string): void {
    const [, who = '', secret = ''] = Buffer.from(base64, 'base64').toString('utf8').split(String.fromCharCode(0));
    login(c, tag, who === user && secret === password);
  }

  /** One complete command (its literals read); errors are a tagged BAD, never a crash. */
  function command(c: Conn, line: string, literals: Buffer[]): void {
    if (c.authTag !== undefined) {
      const tag = c.authTag;
      c.authTag = undefined;
      if (line === '*') done(c, tag, 'BAD Authentication cancelled');
      else plain(c, tag, line);
      return;
    }
    if (c.idleTag !== undefined) {
      if (line.toUpperCase() !== 'DONE') return;
      const tag = c.idleTag;
      c.idleTag = undefined;
      done(c, tag, 'OK IDLE terminated');
      return;
    }
    const match = /^(\S+) (UID \S+|\S+)(?: (.*))?$/s.exec(line);
    if (!match) {
      write(c, '* BAD Syntax error\r\n');
      return;
    }
    const [, tag = '*', rawName = '', rest = ''] = match;
    const name = rawName.toUpperCase();
    commands.push({
      connection: c.id,
      tag,
      name,
      args: rest.replace(/\uE000(\d+)\uE000/g, (_m, n) => `{${literals[Number(n)]?.length}}`),
    });
    try {
      run(c, tag, name, rest, literals);
    } catch (error) {
      done(c, tag, `BAD ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const server = createServer((socket) => {
    // an answer is several writes (untagged lines, then the tagged one): without this, Nagle's
    // algorithm holds the last one until the client's delayed ACK (~40 ms a command on loopback)
    socket.setNoDelay(true);
    opened += 1;
    const c: Conn = {
      id: opened,
      socket,
      state: 'notauth',
      readOnly: false,
      known: 0,
      idleTag: undefined,
      authTag: undefined,
    };
    conns.add(c);
    socket.on('close', () => conns.delete(c));
    socket.on('error', () => conns.delete(c));
    let buffer = Buffer.alloc(0);
    let line = '';
    let literals: Buffer[] = [];
    let literalLeft = -1;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (literalLeft >= 0) {
          if (buffer.length < literalLeft) return;
          literals.push(buffer.subarray(0, literalLeft));
          line += `\uE000${literals.length - 1}\uE000`;
          buffer = buffer.subarray(literalLeft);
          literalLeft = -1;
        }
        const end = buffer.indexOf('\r\n');
        if (end === -1) return;
        const text = buffer.subarray(0, end).toString('utf8');
        buffer = buffer.subarray(end + 2);
        const literal = /\{(\d+)(\+?)\}$/.exec(text);
        if (literal) {
          line += text.slice(0, literal.index);
          literalLeft = Number(literal[1]);
          if (literal[2] !== '+') write(c, '+ Ready for literal\r\n');
          continue;
        }
        const whole = line + text;
        const held = literals;
        line = '';
        literals = [];
        command(c, whole, held);
      }
    });
    write(c, `* OK [CAPABILITY ${CAPABILITIES}] Fake IMAP ready\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake imap: no port');

  return {
    host: '127.0.0.1',
    port: address.port,
    user,
    password,
    uidValidity: () => validity,
    messages,
    commands,
    deliver(raw, flags = []) {
      const uid = uidNext++;
      messages.push({
        uid,
        flags: new Set(flags),
        raw: Buffer.isBuffer(raw) ? raw : Buffer.from(raw),
        internalDate: new Date(),
      });
      for (const c of conns) if (c.idleTag !== undefined) sync(c);
      return uid;
    },
    dropConnections() {
      for (const c of conns) c.socket.destroy();
      conns.clear();
    },
    refuseLogins(refuse) {
      refusing = refuse;
    },
    renumber() {
      validity += 1;
      uidNext = 1;
      for (const m of messages) m.uid = uidNext++;
    },
    connectionsOpened: () => opened,
    openConnections: () => conns.size,
    idling: () => [...conns].filter((c) => c.idleTag !== undefined).length,
    reset() {
      commands.length = 0;
      refusing = false;
    },
    async close() {
      for (const c of conns) c.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
