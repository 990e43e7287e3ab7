// A reasoning model in a Telegram chat, end to end through `hermes gateway run` (real grammy against
// the fake Bot API): the thinking (`reasoning_content` and a `<think>` block) is not shown by
// default, `/reasoning show` shows it above the answers of that chat only, `/reasoning hide` hides
// it again, and it never reaches the transcript in state.db or the history the model gets back.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

describe('/reasoning in a Telegram chat through hermes gateway run', () => {
  it('hides the thinking by default, shows it in the chat that asked, and never keeps it in the transcript', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\n');
    openai.server.respond((req) => {
      const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
      const last = String(messages.at(-1)?.content ?? '');
      return { reasoning: `pondering ${last}`, text: `<think>inline about ${last}</think>Answer to ${last}` };
    });
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42,43' }),
    );
    const textsTo = (chatId: number) => tg.sent.filter((m) => m.chat_id === chatId).map((m) => m.text);
    const say = async (chatId: number, text: string, expected: (t: string) => boolean) => {
      tg.pushMessage({ chatId, userId: chatId, text });
      return waitFor(() => textsTo(chatId).find((t) => t !== undefined && expected(t)), {
        what: `the answer to "${text}"`,
      });
    };
    try {
      expect(await say(42, 'one', (t) => t.startsWith('Answer to one'))).toBe('Answer to one');
      expect(await say(42, '/reasoning', (t) => t.includes('hidden from'))).toMatch(
        /thinking is hidden from its answers/,
      );
      await say(42, '/reasoning show', (t) => t.includes('will be shown'));
      expect(await say(42, 'two', (t) => t.includes('Answer to two'))).toBe(
        '💭 Thinking:\npondering two\n\ninline about two\n\nAnswer to two',
      );
      // another chat did not ask: its answers stay plain
      expect(await say(43, 'three', (t) => t.includes('Answer to three'))).toBe('Answer to three');
      await say(42, '/reasoning hide', (t) => t.includes('hidden again'));
      expect(await say(42, 'four', (t) => t.includes('Answer to four'))).toBe('Answer to four');
      // the model never gets its thinking back, and state.db never holds it
      const sent = JSON.stringify(openai.server.requests.map((r) => r.body));
      expect(sent).toContain('Answer to two');
      expect(sent).not.toContain('pondering');
      expect(sent).not.toContain('inline about');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    // the transcript keeps the answers without the thinking (the outbox holds what chat 42 was sent)
    const db = new Database(join(home, 'state.db'), { readonly: true });
    try {
      const stored = db.prepare('SELECT content FROM messages').pluck().all().join('\n');
      expect(stored).toContain('Answer to two');
      expect(stored).not.toContain('pondering');
      expect(stored).not.toContain('inline about');
    } finally {
      db.close();
    }
  });
});
