// Streamed answers and reactions end to end: `hermes gateway run` with real grammy against the fake
// Bot API and the real openai client streaming from the fake model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken5678';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

/** true once state.db holds a streamed answer's message ids (platform_state `stream:<inboxId>`) */
function streamIdsStored(home: string): boolean {
  const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT 1 FROM platform_state WHERE key LIKE 'stream:%' AND value <> '[]'").get() !== undefined;
  } finally {
    db.close();
  }
}

const env = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42',
});

/** streaming off for every platform but on for Telegram (the per-platform override) */
const CONFIG = `display:
  streaming: false
  stream_interval_ms: 200
  reactions: true
gateway:
  platforms:
    telegram:
      streaming: true
`;

describe('Telegram streaming through hermes gateway run', () => {
  it('the answer is one message edited at least twice, ending with the full text; 👀 then 👍 on the question', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), CONFIG);
    const gw = await spawnGateway(env(home));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: 'Streaming works: **every** word arrives, edit by edit.', chunkDelayMs: 300 });
      const update = tg.pushMessage({ chatId: 42, userId: 42, text: 'stream it' });
      const question = update.message?.message_id;
      await waitFor(() => tg.edits.some((e) => e.parse_mode === 'HTML'));
      expect(tg.sent).toHaveLength(1);
      const id = tg.sent[0]?.message_id;
      expect(tg.edits.length).toBeGreaterThanOrEqual(2);
      expect(tg.edits.every((e) => e.message_id === id)).toBe(true);
      expect(tg.edits.at(-1)?.text).toBe('Streaming works: <b>every</b> word arrives, edit by edit.');
      expect(tg.textOf(42, id ?? 0)).toBe('Streaming works: every word arrives, edit by edit.');
      await waitFor(() => tg.reactions.filter((r) => r.message_id === question).length >= 2);
      expect(tg.reactions.filter((r) => r.message_id === question).map((r) => r.emoji)).toEqual([['👀'], ['👍']]);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('killed in mid-stream: after the restart the same message is edited to the complete answer, nothing posted twice', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), CONFIG);
    const answer = 'After a crash the answer is still whole and posted once.';
    const first = await spawnGateway(env(home));
    await waitFor(() => tg.pendingPolls() > 0);
    openai.server.script({ text: answer, chunkDelayMs: 1_000 });
    tg.pushMessage({ chatId: 42, userId: 42, text: 'crash during this' });
    await waitFor(() => tg.sent.length === 1);
    await waitFor(() => streamIdsStored(home), { what: "the streamed message's id committed" });
    await first.stop('SIGKILL');
    openai.server.script({ text: answer, chunkDelayMs: 20 });
    const second = await spawnGateway(env(home));
    try {
      await waitFor(() => tg.edits.some((e) => e.parse_mode === 'HTML'));
      expect(tg.sent).toHaveLength(1);
      expect(tg.textOf(42, tg.sent[0]?.message_id ?? 0)).toBe(answer);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
