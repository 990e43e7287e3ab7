// The clarify tool in a Telegram chat, end to end through `hermes gateway run` (real grammy against
// the fake Bot API, the fake model calling clarify by its call plan): the question goes out with one
// inline button per choice; in a group another user's press is refused and the asking user's press
// is the tool's result; a message the asking user types (unaddressed, in the group) is the answer
// and starts no turn of its own; /stop cancels the wait; no answer within agent.clarify_timeout_s
// gives the model a "did not answer" result and closes the prompt.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SentMessage } from '../fakes/telegram-server.js';
import { answerWithCallPlan } from '../helpers/call-plan.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };
const GROUP = -100;

const plan = (args: object) => `CALL ${JSON.stringify([{ name: 'clarify', arguments: args }])}`;
const completions = () => openai.server.requests.filter((q) => q.path.endsWith('/chat/completions'));
/** the tool result the model got in its n-th request (0-based), parsed */
const toolResult = (n: number): Record<string, unknown> => {
  const last = (completions()[n]?.body as { messages: { role: string; content: string }[] }).messages.at(-1);
  expect(last?.role).toBe('tool');
  return JSON.parse(last?.content ?? '{}') as Record<string, unknown>;
};

async function gateway(config: string): Promise<RunningGateway> {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), `gateway:\n  batch_ms: 0\n${config}`);
  answerWithCallPlan(openai.server);
  const env = telegramGatewayEnv({
    home,
    modelUrl: openai.server.url,
    telegram: telegram.server,
    allowedUsers: '42,43',
  });
  return spawnGateway(env);
}

/** The question message the bot sent (with its keyboard, or as text), once it is there. */
const question = (text: string): Promise<SentMessage> =>
  waitFor(() => telegram.server.sent.find((m) => m.text.includes(text)), { what: `the question "${text}"` });

describe('clarify in a Telegram chat through hermes gateway run', () => {
  it("buttons per choice; a press by another user is refused, the asker's is the answer; a typed reply answers too; /stop cancels", async () => {
    const tg = telegram.server;
    const gw = await gateway('');
    try {
      // a group: one button per choice
      tg.pushMessage({
        chatId: GROUP,
        chatType: 'supergroup',
        userId: 42,
        text: `@${tg.bot.username} ${plan({ question: 'Which city?', choices: ['Rome', 'Paris'] })}`,
      });
      const asked = await question('Which city?');
      const buttons = (asked.reply_markup as Keyboard).inline_keyboard.flat();
      expect(buttons.map((b) => b.text)).toEqual(['Rome', 'Paris']);
      const paris = buttons.find((b) => b.text === 'Paris')?.callback_data ?? '';
      const other = tg.pushCallbackQuery({ chatId: GROUP, userId: 43, messageId: asked.message_id, data: paris });
      await waitFor(() => tg.callbackAnswers.get(other.callback_query?.id ?? ''));
      expect(tg.callbackAnswers.get(other.callback_query?.id ?? '')).toMatch(/^Not yours/);
      expect(completions()).toHaveLength(1); // still waiting
      const press = tg.pushCallbackQuery({ chatId: GROUP, userId: 42, messageId: asked.message_id, data: paris });
      await waitFor(() => completions().length === 2, { what: 'the tool result sent to the model' });
      expect(toolResult(1)).toEqual({ answer: 'Paris', choice: 1, via: 'button' });
      await waitFor(() => tg.sent.some((m) => m.text.includes('"answer":"Paris"')), { what: 'the answer' });
      expect(tg.callbackAnswers.get(press.callback_query?.id ?? '')).toBe('Answered: Paris');
      await waitFor(() => asked.reply_markup === undefined, { what: 'the keyboard removed' });
      expect(asked.edits).toEqual(['❓ Which city?\n→ Paris']);

      // a typed reply of the asker (not addressed to the bot) is the answer; another user's is not
      openai.server.reset();
      answerWithCallPlan(openai.server);
      tg.pushMessage({
        chatId: GROUP,
        chatType: 'supergroup',
        userId: 42,
        text: `@${tg.bot.username} ${plan({ question: 'What budget?', choices: ['Low', 'High'] })}`,
      });
      await question('What budget?');
      tg.pushMessage({ chatId: GROUP, chatType: 'supergroup', userId: 43, text: 'Low' });
      tg.pushMessage({ chatId: GROUP, chatType: 'supergroup', userId: 42, text: 'about 500 euros' });
      await waitFor(() => completions().length === 2, { what: 'the tool result sent to the model' });
      expect(toolResult(1)).toEqual({ answer: 'about 500 euros', choice: null, via: 'text' });
      await waitFor(() => tg.sent.some((m) => m.text.includes('about 500 euros')), { what: 'the answer' });
      expect(completions()).toHaveLength(2); // the typed answer started no turn of its own

      // /stop ends the wait: the prompt says so and the model is not asked again
      openai.server.reset();
      answerWithCallPlan(openai.server);
      tg.pushMessage({
        chatId: 42,
        userId: 42,
        text: plan({ question: 'Window or aisle?', choices: ['Window', 'Aisle'] }),
      });
      const seat = await question('Window or aisle?');
      tg.pushMessage({ chatId: 42, userId: 42, text: '/stop' });
      await waitFor(() => seat.edits?.includes('❓ Window or aisle?\nCancelled.'), { what: 'the prompt cancelled' });
      expect(completions()).toHaveLength(1);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('no answer within agent.clarify_timeout_s: the model is told the user did not answer, the prompt says so', async () => {
    const tg = telegram.server;
    const gw = await gateway('agent:\n  clarify_timeout_s: 1\n');
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: plan({ question: 'Shall I go on?', choices: ['Yes', 'No'] }) });
      const asked = await question('Shall I go on?');
      await waitFor(() => completions().length === 2, { what: 'the tool result sent to the model' });
      expect(toolResult(1)).toMatchObject({ answered: false });
      expect(String(toolResult(1).reason)).toContain('did not answer within 1 s');
      await waitFor(() => asked.reply_markup === undefined, { what: 'the keyboard removed' });
      expect(asked.edits).toEqual(['❓ Shall I go on?\nNo answer in time: going on without it.']);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
