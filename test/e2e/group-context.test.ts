// A group's unaddressed messages in a Telegram chat, end to end through `hermes gateway run` (real
// grammy against the fake Bot API): kept and given to the model once, before the next message that
// mentions the bot; a channel's prompt from gateway.channel_prompts added after the system prompt.
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
const GROUP = -100555;

const chatRequests = () =>
  openai.server.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => (r.body as { messages: ChatMessage[] }).messages);

describe('group context through hermes gateway run', () => {
  it('gives the model what the group said since the last mention, once, and the channel prompt', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      `gateway:\n  batch_ms: 0\n  group_context_messages: 2\n  channel_prompts:\n    "telegram:${GROUP}": "You are the book club's helper."\n`,
    );
    openai.server.respond(() => ({ text: 'noted' }));
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42,43' }),
    );
    const ignored = async () => {
      const text = await (await fetch(`${gw.url}/metrics`)).text();
      return Number(/hermes_messages_ignored_total\{[^}]*reason="not_addressed"[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    try {
      const say = (userId: number, text: string, firstName: string) =>
        tg.pushMessage({ chatId: GROUP, chatType: 'supergroup', userId, firstName, text });
      say(42, 'I think chapter 3 drags', 'Ann');
      say(43, 'No, chapter 3 is the best part', 'Bob');
      say(42, 'The ending was rushed though', 'Ann');
      await waitFor(async () => (await ignored()) >= 3, { what: 'three unaddressed messages passed over' });
      say(43, `@${tg.bot.username} what do you think of the above?`, 'Bob');
      await waitFor(() => tg.sent.length >= 1, { what: 'the answer to the mention' });
      const first = chatRequests()[0] ?? [];
      const user = String(first.at(-1)?.content);
      // the last two (group_context_messages: 2), by name, then the message itself
      expect(user).toBe(
        `[Earlier in this group, not addressed to you:]\nBob: No, chapter 3 is the best part\nAnn: The ending was rushed though\n[The message to you:]\n@${tg.bot.username} what do you think of the above?`,
      );
      expect(String(first[0]?.content)).toContain("You are the book club's helper.");
      // given once: the next mention carries no context
      say(42, `@${tg.bot.username} thanks`, 'Ann');
      await waitFor(() => tg.sent.length >= 2, { what: 'the answer to the second mention' });
      expect(String(chatRequests()[1]?.at(-1)?.content)).toBe(`@${tg.bot.username} thanks`);
      // a direct message gets neither the group's context nor its prompt
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hi in private' });
      await waitFor(() => tg.sent.length >= 3, { what: 'the DM answered' });
      expect(String(chatRequests()[2]?.[0]?.content)).not.toContain('book club');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
