// The bare Matrix baseline, as its own process: a /sync long-poll loop with `fetch` against the
// Client-Server API, answering each text message (or, as the plain echo bot, a fixed text; see
// model.ts) with PUT /rooms/{room}/send/m.room.message/{txnId}; the room is the chat whose history
// it keeps. Not matrix-bot-sdk, the maintained SDK: its current release (0.8) requires Node 22
// (this project runs on Node 20) and its crypto dependency downloads a native library in a
// postinstall script, so it does not install cleanly here; the loop below is what that SDK does
// for an unencrypted bot (initial sync skipped, then `since` + `timeout`, handlers not awaited).
// Settings from the environment: BENCH_MATRIX_HOMESERVER_URL, BENCH_MATRIX_ACCESS_TOKEN,
// BENCH_MATRIX_USER_ID, BENCH_MODEL_URL (…/v1). Prints {"ready":true} after its first sync.
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

interface RoomEvent {
  type: string;
  sender: string;
  content?: { msgtype?: string; body?: string };
}
interface SyncAnswer {
  next_batch: string;
  rooms?: { join?: Record<string, { timeline?: { events?: RoomEvent[] } }> };
}

const ask = await answerer();
const homeserver = setting('BENCH_MATRIX_HOMESERVER_URL');
const userId = setting('BENCH_MATRIX_USER_ID');
const headers = { authorization: `Bearer ${setting('BENCH_MATRIX_ACCESS_TOKEN')}` };
const SYNC_TIMEOUT_MS = 30_000;
const stopping = new AbortController();
let txn = 0;

async function sync(since: string | undefined): Promise<SyncAnswer> {
  const query = new URLSearchParams(since === undefined ? {} : { since, timeout: String(SYNC_TIMEOUT_MS) });
  const res = await fetch(`${homeserver}/_matrix/client/v3/sync?${query}`, { headers, signal: stopping.signal });
  if (!res.ok) throw new Error(`/sync answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as SyncAnswer;
}

async function reply(roomId: string, body: string): Promise<void> {
  const path = `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/bare${Date.now()}.${txn++}`;
  const res = await fetch(`${homeserver}${path}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ msgtype: 'm.text', body: await ask(roomId, body) }),
  });
  if (!res.ok) throw new Error(`send answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

// the first sync hands over the rooms' history: nothing in it is answered
let since = (await sync(undefined)).next_batch;
announceReady();
exitOnSignal(async () => stopping.abort());
while (!stopping.signal.aborted) {
  let answer: SyncAnswer;
  try {
    answer = await sync(since);
  } catch (error) {
    if (stopping.signal.aborted) break;
    process.stderr.write(`bare matrix bot: ${String(error)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    continue;
  }
  since = answer.next_batch;
  for (const [roomId, room] of Object.entries(answer.rooms?.join ?? {})) {
    for (const event of room.timeline?.events ?? []) {
      if (event.type !== 'm.room.message' || event.sender === userId || event.content?.msgtype !== 'm.text') continue;
      reply(roomId, event.content.body ?? '').catch((error: unknown) =>
        process.stderr.write(`bare matrix bot: ${String(error)}\n`),
      );
    }
  }
}
