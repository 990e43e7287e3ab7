// The session commands in a Telegram chat, end to end through `hermes gateway run` (real grammy
// against the fake Bot API): /undo takes the last exchange out of what the model sees, /retry asks
// the last message again, /title names the session, /sessions lists the chat's sessions (not
// another user's), /resume goes back to an earlier one with its history.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

/** the user texts of the last model request */
const lastUserTexts = () => {
  const requests = openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const messages = (requests.at(-1)?.body as { messages: ChatMessage[] }).messages;
  return messages.filter((m) => m.role === 'user').map((m) => String(m.content));
};

describe('session commands in a Telegram chat through hermes gateway run', () => {
  it('/undo, /retry, /title, /sessions and /resume work on this chat’s sessions', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\n');
    let n = 0;
    openai.server.respond(() => ({ text: `answer ${++n}` }));
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42,43' }),
    );
    const seen = new Set<number>();
    /** sends `text` from user `chatId` and resolves with the next message the bot sends that chat */
    const sayOnce = async (chatId: number, text: string) => {
      for (const m of tg.sent) seen.add(m.message_id);
      tg.pushMessage({ chatId, userId: chatId, text });
      const reply = await waitFor(() => tg.sent.find((m) => m.chat_id === chatId && !seen.has(m.message_id)), {
        what: `the answer to "${text}"`,
      });
      seen.add(reply.message_id);
      return reply.text ?? '';
    };
    // A session command that lands while the previous turn still finishes (its answer sent, its
    // delivered mark not yet committed) is told the session is busy, as documented; sent again
    // then, as a user would, it runs. On a busy machine that window is a few milliseconds wide.
    const say = async (chatId: number, text: string) => {
      for (let attempt = 0; ; attempt++) {
        const reply = await sayOnce(chatId, text);
        if (!reply.startsWith('An answer is still running here') || attempt === 5) return reply;
      }
    };
    try {
      expect(await say(42, 'first question')).toBe('answer 1');
      expect(await say(42, 'a typo-ed question')).toBe('answer 2');
      expect(await say(42, '/undo')).toMatch(/^Took back "a typo-ed question" and its answer \(2 messages\)/);
      expect(await say(42, 'second question')).toBe('answer 3');
      expect(lastUserTexts()).toEqual(['first question', 'second question']);
      // /retry: the last message asked again, its old answer gone from the history
      expect(await say(42, '/retry')).toBe('answer 4');
      expect(lastUserTexts()).toEqual(['first question', 'second question']);
      expect(await say(42, '/title Planning')).toBe('This session is now "Planning".');
      expect(await say(42, '/new')).toBe('Started a new session.');
      expect(await say(42, 'fresh start')).toBe('answer 5');
      expect(lastUserTexts()).toEqual(['fresh start']);
      // user 43 has a session of their own, never listed in 42's chat
      expect(await say(43, 'hello from 43')).toBe('answer 6');
      const list = await say(42, '/sessions');
      expect(list).toMatch(
        /^1\. untitled · 2 messages · just now \(current\)\n2\. "Planning" · 4 messages · just now\n/,
      );
      expect(list).not.toContain('3.');
      expect(await say(42, '/resume 2')).toBe('Resumed "Planning" (4 messages): the conversation goes on from there.');
      expect(await say(42, 'back again')).toBe('answer 7');
      expect(lastUserTexts()).toEqual(['first question', 'second question', 'back again']);
      expect(await say(42, '/resume 9')).toMatch(/^There is no session 9 here/);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
