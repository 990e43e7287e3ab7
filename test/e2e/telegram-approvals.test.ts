// Approvals in a Telegram chat, end to end through `hermes gateway run` with real grammy against
// the fake Bot API: the inline keyboard, a press by the asking user, a press by another user of the
// group (answered "not yours" and ignored), the timeout, and --yolo (with the always-blocked floor
// it does not lift).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, type SentMessage, startFakeTelegram } from '../fakes/telegram-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

function setUp(config: string): { home: string; target: string; env: Record<string, string> } {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), config);
  const target = join(home, 'victim');
  mkdirSync(target);
  writeFileSync(join(target, 'keep.txt'), 'x');
  const env = {
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: tg.apiRoot,
    TELEGRAM_ALLOWED_USERS: '42,43',
  };
  return { home, target, env };
}

type Keyboard = { inline_keyboard: { text: string; callback_data: string }[][] };
/** the message sent with the inline keyboard (its text and keyboard change once answered) */
const prompt = (): SentMessage | undefined => tg.sent.find((m) => m.body.reply_markup !== undefined);
const button = (message: SentMessage, label: string): string =>
  (message.reply_markup as Keyboard).inline_keyboard.flat().find((b) => b.text === label)?.callback_data ?? '';
/** the content of the last message of each chat-completion request: tool results after a tool call */
const lastMessages = () =>
  openai.server.requests
    .filter((q) => q.path.endsWith('/chat/completions'))
    .map((q) => (q.body as { messages: { role: string; content: string }[] }).messages.at(-1));

describe('approvals in a Telegram chat through hermes gateway run', () => {
  it('the asking user presses "Allow once": the command runs, the keyboard goes, the press is answered', async () => {
    const { target, env } = setUp('gateway:\n  batch_ms: 0\n');
    const command = `rm -rf ${target}/*`;
    openai.server.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'deleted' });
    const gw = await spawnGateway(env);
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: 'clean up the victim folder' });
      await waitFor(() => prompt() !== undefined);
      const asked = prompt() as SentMessage;
      expect(asked.text).toContain(command);
      expect((asked.reply_markup as Keyboard).inline_keyboard.flat().map((b) => b.text)).toEqual([
        'Allow once',
        'Allow this session',
        'Always allow',
        'Deny',
      ]);
      expect(existsSync(join(target, 'keep.txt'))).toBe(true);
      const press = tg.pushCallbackQuery({
        chatId: 42,
        userId: 42,
        messageId: asked.message_id,
        data: button(asked, 'Allow once'),
      });
      await waitFor(() => tg.sent.some((m) => m.text === 'deleted'));
      expect(existsSync(join(target, 'keep.txt'))).toBe(false);
      expect(JSON.parse(lastMessages()[1]?.content ?? '{}')).toMatchObject({ exit_code: 0 });
      expect(tg.callbackAnswers.get(press.callback_query?.id ?? '')).toBe('Approved once.');
      await waitFor(() => prompt()?.reply_markup === undefined);
      expect(prompt()?.edits).toEqual([`Approved once.`]);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('in a group, another user\'s press is answered "not yours" and ignored; no answer in time denies', async () => {
    const { target, env } = setUp('gateway:\n  batch_ms: 0\napprovals:\n  timeout_s: 1.5\n');
    const command = `rm -rf ${target}/*`;
    openai.server.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'could not' });
    const gw = await spawnGateway(env);
    try {
      tg.pushMessage({ chatId: -100, chatType: 'supergroup', userId: 42, text: `@${tg.bot.username} clean up` });
      await waitFor(() => prompt() !== undefined);
      const asked = prompt() as SentMessage;
      const data = button(asked, 'Allow once');
      const other = tg.pushCallbackQuery({ chatId: -100, userId: 43, messageId: asked.message_id, data });
      await waitFor(() => tg.callbackAnswers.has(other.callback_query?.id ?? ''));
      expect(tg.callbackAnswers.get(other.callback_query?.id ?? '')).toMatch(/^Not yours/);
      await waitFor(() => tg.sent.some((m) => m.text === 'could not'));
      expect(existsSync(join(target, 'keep.txt'))).toBe(true);
      expect(JSON.parse(lastMessages()[1]?.content ?? '{}')).toMatchObject({ denied: true });
      await waitFor(() => prompt()?.reply_markup === undefined);
      expect(prompt()?.text).toBe('No answer in time: denied.');
      // a press after the answer is told so, and changes nothing
      const late = tg.pushCallbackQuery({ chatId: -100, userId: 42, messageId: asked.message_id, data });
      await waitFor(() => tg.callbackAnswers.has(late.callback_query?.id ?? ''));
      expect(tg.callbackAnswers.get(late.callback_query?.id ?? '')).toMatch(/no longer waiting/);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('/deny typed in the chat answers the waiting approval', async () => {
    const { target, env } = setUp('gateway:\n  batch_ms: 0\n');
    const command = `rm -rf ${target}/*`;
    openai.server.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'denied, ok' });
    const gw = await spawnGateway(env);
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: 'clean up' });
      await waitFor(() => prompt() !== undefined);
      tg.pushMessage({ chatId: 42, userId: 42, text: '/deny' });
      await waitFor(() => tg.sent.some((m) => m.text === 'denied, ok'));
      expect(tg.sent.some((m) => m.text === 'Denied.')).toBe(true);
      expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('gateway run --yolo runs dangerous commands without asking, and warns', async () => {
    const { target, env } = setUp('gateway:\n  batch_ms: 0\n');
    const command = `rm -rf ${target}/*`;
    openai.server.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'yolo done' });
    const yolo = await spawnGateway(env, 30_000, ['--yolo']);
    try {
      expect(yolo.stderr()).toContain('--yolo: dangerous terminal commands run without asking');
      tg.pushMessage({ chatId: 42, userId: 42, text: 'clean up' });
      await waitFor(() => tg.sent.some((m) => m.text === 'yolo done'));
      expect(prompt()).toBeUndefined();
      expect(existsSync(join(target, 'keep.txt'))).toBe(false);

      // the always-blocked floor holds under --yolo: never run, nobody asked, the model told why
      // (harmless if it ran: mkfs of a device that does not exist, after a marker file)
      const marker = join(target, 'floor-marker');
      const floor = `touch ${marker} && mkfs.ext4 /dev/hermes-test-no-such-device`;
      openai.server.script(
        { toolCalls: [{ name: 'terminal', arguments: { command: floor } }] },
        { text: 'floor done' },
      );
      tg.pushMessage({ chatId: 42, userId: 42, text: 'format it' });
      await waitFor(() => tg.sent.some((m) => m.text === 'floor done'));
      expect(prompt()).toBeUndefined();
      expect(existsSync(marker)).toBe(false);
      const toolResult = JSON.stringify(openai.server.requests.at(-1)?.body ?? '');
      expect(toolResult).toContain('Blocked: format or wipe a filesystem');
      expect(toolResult).toContain('never runs this command');
    } finally {
      expect(await yolo.stop()).toBe(0);
    }
  });
});
