// The store's work per message, in-process, as the gateway drives it on SQLite (asyncSqliteStore):
//   node --import tsx test/bench/store-per-message.ts [CHATS=16] [MESSAGES=6000]
// Per message: the accept (a unit of work of its own), the reads of a turn's admission (the
// identity's owner, the first approved user), the turns_per_minute upsert (group commit), a new
// session every 10 messages of a chat, the transcript (user + assistant, with tokens) with the
// outbox row, then the delivered mark with the inbox row's done mark. CHATS chats run at once,
// each message's steps awaited in order, so the group commit shares transactions as under load.
// Prints the process's CPU time per message (user + system, every thread) and the statements run.
// STORE_SRC=DIR imports the store from DIR/src/index.ts instead (a frozen copy for A/B: copy
// packages/store to DIR and symlink DIR/node_modules to this tree's node_modules).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type StoreModule = typeof import('../../packages/store/src/index.js');

const chats = Number(process.argv[2] ?? 16);
const messages = Number(process.argv[3] ?? 6000);
const src = process.env.STORE_SRC
  ? pathToFileURL(join(resolve(process.env.STORE_SRC), 'src', 'index.ts')).href
  : '../../packages/store/src/index.js';
const { openStore, asyncSqliteStore } = (await import(src)) as StoreModule;

const dir = mkdtempSync(join(tmpdir(), 'hermes-store-bench-'));
const sync = openStore(join(dir, 'state.db'));
const store = asyncSqliteStore(sync);
const minute = 60_000;

let statements = 0;
const proto = Object.getPrototypeOf(sync.db.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
for (const method of ['run', 'get', 'all']) {
  const original = proto[method] as (...a: unknown[]) => unknown;
  proto[method] = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    return original.apply(this, args);
  };
}

let nextMessage = 0;
let nextChat = 0;
const payload = (chat: number, n: number, text: string) => ({
  platform: 'telegram',
  messageId: `${chat}:${n}`,
  source: { platform: 'telegram', chatId: String(chat), chatType: 'dm', userId: String(chat), userName: 'Ada' },
  receivedAt: Date.now(),
  raw: {
    update_id: n,
    message: {
      message_id: n,
      from: { id: chat, is_bot: false, first_name: 'Ada', language_code: 'en' },
      chat: { id: chat, type: 'private', first_name: 'Ada' },
      date: Math.floor(Date.now() / 1000),
      text,
    },
  },
  text,
  internal: false,
  kind: 'text',
});

async function oneMessage(chat: number, session: { id: string | null }): Promise<void> {
  const n = nextMessage++;
  const text = `bench message ${n}`;
  const key = `telegram:${chat}:dm`;
  const [accepted] = await store.commit([
    {
      kind: 'inbox.accept',
      platform: 'telegram',
      key: `${chat}:${n}`,
      payload: payload(chat, n, text),
      sessionKey: key,
    },
  ]);
  const acceptResult = accepted as { accepted: true; id: number } | { accepted: false };
  if (!acceptResult.accepted) throw new Error('not accepted');
  const identity = `telegram:${chat}`;
  await store.identityLinks.ownerOf(identity);
  await store.pairing.firstApproved();
  const at = Date.now();
  await store.usageCounters.add(identity, 'minute', { start: at, staleBefore: at - minute }, { turns: 1 });
  if (session.id === null) {
    const found = await store.sessions.activeByKey(key);
    session.id = (found ?? (await store.sessions.create({ key, platform: 'telegram', userKey: identity }))).id;
  }
  await new Promise<void>((done) => setImmediate(done)); // the model's answer comes on a later turn
  const [, enqueued] = await store.commit([
    {
      kind: 'transcripts.append',
      sessionId: session.id,
      messages: [
        { role: 'user', content: text },
        { role: 'assistant', content: 'echo' },
      ],
      tokens: { prompt_tokens: 12, completion_tokens: 1 },
    },
    {
      kind: 'outbox.enqueue',
      rows: [
        {
          inboxId: acceptResult.id,
          platform: 'telegram',
          chatId: String(chat),
          chunkIndex: 0,
          text: 'echo',
          formatted: true,
        },
      ],
    },
  ]);
  const row = Array.isArray(enqueued) ? enqueued[0] : undefined;
  if (!row) throw new Error('not enqueued');
  await new Promise<void>((done) => setImmediate(done)); // the platform's answer
  await store.commit([
    { kind: 'outbox.markSent', id: row.id, platformMessageId: String(n) },
    { kind: 'inbox.mark', id: acceptResult.id, status: 'done' },
  ]);
}

async function run(total: number): Promise<void> {
  let left = total;
  const lane = async () => {
    let chat = nextChat++;
    let session = { id: null as string | null };
    let turns = 0;
    while (left > 0) {
      left -= 1;
      if (turns === 10) {
        chat = nextChat++;
        session = { id: null };
        turns = 0;
      }
      turns += 1;
      await oneMessage(chat, session);
    }
  };
  await Promise.all(Array.from({ length: chats }, lane));
}

await run(Math.min(2000, messages));
statements = 0;
const cpu = process.cpuUsage();
const started = performance.now();
await run(messages);
const used = process.cpuUsage(cpu);
const elapsed = performance.now() - started;
console.log(
  `store per message, ${chats} chats: CPU ${((used.user + used.system) / messages).toFixed(1)} us, ` +
    `${(statements / messages).toFixed(2)} statements, ${((messages / elapsed) * 1000).toFixed(0)} msg/s`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
