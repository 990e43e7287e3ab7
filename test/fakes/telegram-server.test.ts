import { Api, Bot, GrammyError, HttpError, InputFile } from 'grammy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, parseTelegramHtml, startFakeTelegram } from './telegram-server.js';

const TOKEN = '123456:TEST-token';
let fake: FakeTelegram;
let api: Api;

beforeAll(async () => {
  fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 300 });
  api = new Api(TOKEN, { apiRoot: fake.apiRoot });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('fake Telegram: identity and auth', () => {
  it('answers getMe with the test bot, its id taken from the token', async () => {
    const me = await api.getMe();
    expect(me).toMatchObject({ id: 123456, is_bot: true, first_name: 'Hermes', username: 'hermes_test_bot' });
    expect(fake.apiRoot).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a wrong token with 401 Unauthorized', async () => {
    const wrong = new Api('999:nope', { apiRoot: fake.apiRoot });
    const error = await rejection(wrong.getMe());
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 401, description: 'Unauthorized' });
  });

  it('lets bot.init() fetch the bot info through the real Bot', async () => {
    const bot = new Bot(TOKEN, { client: { apiRoot: fake.apiRoot } });
    await bot.init();
    expect(bot.botInfo.username).toBe('hermes_test_bot');
    expect(fake.calls.map((call) => call.method)).toEqual(['getMe']);
  });

  it('answers an unknown method with 404', async () => {
    const error = await rejection(api.raw.logOut());
    expect(error).toMatchObject({ error_code: 404, description: 'Not Found' });
  });
});

describe('fake Telegram: getUpdates', () => {
  it('returns queued updates and drops those below the confirming offset', async () => {
    const first = fake.pushMessage({ chatId: 42, userId: 42, text: 'one' });
    const second = fake.pushMessage({ chatId: 42, userId: 42, text: 'two' });
    expect(second.update_id).toBe(first.update_id + 1);
    const all = await api.getUpdates({ timeout: 0 });
    expect(all.map((update) => update.message?.text)).toEqual(['one', 'two']);
    const rest = await api.getUpdates({ offset: first.update_id + 1, timeout: 0 });
    expect(rest.map((update) => update.update_id)).toEqual([second.update_id]);
    expect(fake.queued()).toHaveLength(1);
  });

  it('holds a long poll until an update arrives', async () => {
    const poll = api.getUpdates({ timeout: 25 });
    await fake.waitForCall('getUpdates');
    expect(fake.pendingPolls()).toBe(1);
    fake.pushMessage({ chatId: 7, userId: 7, text: 'late' });
    const updates = await poll;
    expect(updates.map((update) => update.message?.text)).toEqual(['late']);
    expect(fake.pendingPolls()).toBe(0);
  });

  it('answers [] when the (capped) timeout passes', async () => {
    const started = Date.now();
    expect(await api.getUpdates({ timeout: 25 })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('honours a limit and allowed_updates', async () => {
    fake.pushUpdate({ update_id: 5, edited_message: undefined });
    fake.pushMessage({ chatId: 1, userId: 1, text: 'a' });
    fake.pushMessage({ chatId: 1, userId: 1, text: 'b' });
    const one = await api.getUpdates({ timeout: 0, limit: 1, allowed_updates: ['message'] });
    expect(one.map((update) => update.message?.text)).toEqual(['a']);
  });

  it('answers 409 while a webhook is set, and again after deleteWebhook works', async () => {
    await api.setWebhook('https://example.test/hook', { secret_token: 's3cret' });
    expect(fake.webhook()).toEqual({ url: 'https://example.test/hook', secret_token: 's3cret' });
    const error = await rejection(api.getUpdates({ timeout: 0 }));
    expect(error).toMatchObject({ error_code: 409 });
    await api.deleteWebhook();
    expect(await api.getUpdates({ timeout: 0 })).toEqual([]);
  });

  it('answers an older held poll with 409 when a second poller arrives', async () => {
    const other = new Api(TOKEN, { apiRoot: fake.apiRoot });
    const first = rejection(api.getUpdates({ timeout: 25 }));
    await fake.waitForCall('getUpdates');
    const second = other.getUpdates({ timeout: 25 });
    expect(await first).toMatchObject({ error_code: 409 });
    fake.pushMessage({ chatId: 1, userId: 1, text: 'x' });
    expect(await second).toHaveLength(1);
  });

  it('stops holding a poll the client aborts', async () => {
    const controller = new AbortController();
    // grammy's Node typings declare the abort-controller polyfill's signal; a native one works at run time
    const signal = controller.signal as unknown as NonNullable<Parameters<Api['getMe']>[0]>;
    const poll = rejection(api.getUpdates({ timeout: 25 }, signal));
    await fake.waitForCall('getUpdates');
    controller.abort();
    expect(await poll).toBeInstanceOf(HttpError);
    await expect.poll(() => fake.pendingPolls()).toBe(0);
  });
});

describe('fake Telegram: sendMessage', () => {
  it('records the message and answers a Message with increasing ids', async () => {
    const one = await api.sendMessage(42, 'hello', { reply_parameters: { message_id: 3 }, message_thread_id: 9 });
    const two = await api.sendMessage('42', '<b>bold</b> &amp; more', { parse_mode: 'HTML' });
    expect(two.message_id).toBe(one.message_id + 1);
    expect(two.text).toBe('bold & more');
    expect(one.from?.id).toBe(123456);
    expect(fake.sent).toMatchObject([
      { chat_id: 42, text: 'hello', reply_to_message_id: 3, message_thread_id: 9, message_id: one.message_id },
      { chat_id: 42, text: '<b>bold</b> &amp; more', parse_mode: 'HTML' },
    ]);
  });

  it('refuses broken HTML like Telegram does', async () => {
    const error = await rejection(api.sendMessage(1, '<b>unclosed', { parse_mode: 'HTML' }));
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 400 });
    expect((error as GrammyError).description).toMatch(/^Bad Request: can't parse entities: /);
    expect(fake.sent).toHaveLength(0);
  });

  it('refuses text longer than 4096 characters', async () => {
    const error = await rejection(api.sendMessage(1, 'x'.repeat(4097)));
    expect(error).toMatchObject({ error_code: 400, description: 'Bad Request: message is too long' });
    await api.sendMessage(1, 'x'.repeat(4096));
    expect(fake.sent).toHaveLength(1);
  });

  it('measures the limit on the visible text, not the HTML markup', async () => {
    await api.sendMessage(1, `<b>${'y'.repeat(4096)}</b>`, { parse_mode: 'HTML' });
    expect(fake.sent).toHaveLength(1);
  });

  it('accepts form and multipart bodies', async () => {
    const res = await fetch(`${fake.apiRoot}/bot${TOKEN}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: '5', text: '123', reply_parameters: '{"message_id":2}' }).toString(),
    });
    expect(await res.json()).toMatchObject({ ok: true, result: { text: '123' } });
    // a multipart upload is parsed and recorded (the file's name, size and digest)
    const sentDocument = await api.sendDocument(5, new InputFile(Buffer.from('file body'), 'notes.txt'), {
      caption: 'doc',
    });
    expect(sentDocument.document).toMatchObject({ file_name: 'notes.txt', file_size: 9 });
    const upload = fake.calls.find((call) => call.method === 'sendDocument');
    expect(upload?.body).toMatchObject({ chat_id: 5, caption: 'doc', document: { fileName: 'notes.txt', size: 9 } });
    expect(fake.uploads[0]).toMatchObject({ method: 'sendDocument', chat_id: 5, fileName: 'notes.txt', size: 9 });
    expect(fake.sent[0]).toMatchObject({ chat_id: 5, text: '123', reply_to_message_id: 2 });
  });
});

describe('fake Telegram: fault injection', () => {
  it('fails the next call of a method with 429 and retry_after', async () => {
    fake.failNext('sendMessage', { status: 429, retryAfter: 1 });
    const error = await rejection(api.sendMessage(1, 'hi'));
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    });
    await api.sendMessage(1, 'hi');
    expect(fake.calls.map((call) => call.status)).toEqual([429, 200]);
  });

  it('queues several failures in order, with custom bodies', async () => {
    fake.failNext('getUpdates', { status: 409 });
    fake.failNext('getUpdates', { status: 500, body: { ok: false, error_code: 500, description: 'boom' } });
    expect(await rejection(api.getUpdates({ timeout: 0 }))).toMatchObject({ error_code: 409 });
    expect(await rejection(api.getUpdates({ timeout: 0 }))).toMatchObject({ error_code: 500, description: 'boom' });
    expect(await api.getUpdates({ timeout: 0 })).toEqual([]);
  });

  it('simulates a network failure and dropped connections', async () => {
    fake.failNext('getMe', { network: true });
    expect(await rejection(api.getMe())).toBeInstanceOf(HttpError);
    const poll = rejection(api.getUpdates({ timeout: 25 }));
    await fake.waitForCall('getUpdates');
    fake.dropConnections();
    expect(await poll).toBeInstanceOf(HttpError);
    expect((await api.getMe()).id).toBe(123456);
  });
});

describe('fake Telegram: message builders and files', () => {
  it('builds a private text message with a /command entity', () => {
    const update = fake.pushMessage({ chatId: 42, userId: 42, username: 'ada', text: '/start@hermes_test_bot now' });
    expect(update.message).toMatchObject({
      chat: { id: 42, type: 'private' },
      from: { id: 42, is_bot: false, username: 'ada' },
      text: '/start@hermes_test_bot now',
      entities: [{ type: 'bot_command', offset: 0, length: 22 }],
    });
  });

  it('builds group mentions, replies to the bot and topic messages', async () => {
    await api.sendMessage(-100, 'bot says');
    const reply = fake.webhookUpdate({ chatId: -100, chatType: 'supergroup', userId: 1, text: 'hi', replyToBot: true });
    expect(reply.message?.reply_to_message).toMatchObject({ from: { id: 123456 }, text: 'bot says' });
    const mention = fake.webhookUpdate({ chatId: -5, chatType: 'group', userId: 1, text: 'hey @hermes_test_bot' });
    expect(mention.message?.entities).toEqual([{ type: 'mention', offset: 4, length: 16 }]);
    const topic = fake.webhookUpdate({ chatId: -100, chatType: 'supergroup', userId: 1, text: 't', threadId: 77 });
    expect(topic.message).toMatchObject({ message_thread_id: 77, is_topic_message: true, chat: { is_forum: true } });
    expect(fake.queued()).toHaveLength(0); // webhookUpdate does not queue
  });

  it('serves photos (largest last) and documents through getFile and the file URL', async () => {
    const update = fake.pushMessage({
      chatId: 42,
      userId: 42,
      text: 'look',
      photo: { data: 'PNGDATA' },
      document: { data: 'doc', fileName: 'a.pdf', mimeType: 'application/pdf' },
    });
    const message = update.message;
    expect(message?.caption).toBe('look');
    expect(message?.text).toBeUndefined();
    const largest = message?.photo?.at(-1);
    expect(largest?.width).toBe(1280);
    const file = await api.getFile(largest?.file_id ?? '');
    const res = await fetch(`${fake.apiRoot}/file/bot${TOKEN}/${file.file_path}`);
    expect(await res.text()).toBe('PNGDATA');
    const doc = await api.getFile(message?.document?.file_id ?? '');
    expect(doc.file_path).toMatch(/^documents\/file_\d+\.pdf$/);
    expect(await rejection(api.getFile('nope'))).toMatchObject({ error_code: 400 });
    expect((await fetch(`${fake.apiRoot}/file/bot${TOKEN}/missing.jpg`)).status).toBe(404);
  });
});

describe('parseTelegramHtml', () => {
  it('decodes the entities Telegram supports and keeps unknown ones as text', () => {
    expect(parseTelegramHtml('a &lt;b&gt; &amp; &quot;c&quot; &#65;&#x42; &nbsp;')).toEqual({
      ok: true,
      text: 'a <b> & "c" AB &nbsp;',
    });
  });

  it('accepts every supported tag, nested', () => {
    const html =
      '<b>b <i>i <u>u <s>s</s></u></i></b> <a href="https://x.test/?a=1&amp;b=2">l</a> <span class="tg-spoiler">s</span> <pre><code class="language-ts">x</code></pre> <blockquote>q</blockquote>';
    expect(parseTelegramHtml(html).ok).toBe(true);
  });

  it.each([
    ['<br>', 'Unsupported start tag "br" at byte offset 0'],
    ['a < b', 'Unsupported start tag "" at byte offset 2'],
    ['<b>x', 'Can\'t find end tag corresponding to start tag "b"'],
    ['x</b>', 'Unexpected end tag at byte offset 1'],
    ['<b><i>x</b></i>', 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'],
    ['<span>x</span>', 'Unsupported start tag "span" at byte offset 0'],
  ])('refuses %s', (html, why) => {
    expect(parseTelegramHtml(html)).toEqual({ ok: false, description: `Bad Request: can't parse entities: ${why}` });
  });
});

describe('fake Telegram: editMessageText and setMessageReaction', () => {
  it('edits a bot message; the same text again is "message is not modified"; an unknown one is not found', async () => {
    const sent = await api.sendMessage(42, 'draft');
    await api.editMessageText(42, sent.message_id, '<b>final</b>', { parse_mode: 'HTML' });
    expect(fake.textOf(42, sent.message_id)).toBe('final');
    expect(fake.edits.map((e) => [e.message_id, e.text, e.parse_mode])).toEqual([
      [sent.message_id, '<b>final</b>', 'HTML'],
    ]);
    const same = await rejection(api.editMessageText(42, sent.message_id, 'final'));
    expect(same).toMatchObject({ error_code: 400 });
    expect((same as GrammyError).description).toMatch(/message is not modified/);
    const missing = await rejection(api.editMessageText(42, 9_999, 'x'));
    expect(missing).toMatchObject({ error_code: 400, description: 'Bad Request: message to edit not found' });
  });

  it("accepts a reaction from Telegram's list and refuses one that is not on it (✅ is not)", async () => {
    const update = fake.pushMessage({ chatId: 42, userId: 42, text: 'hi' });
    const id = update.message?.message_id ?? 0;
    await api.setMessageReaction(42, id, [{ type: 'emoji', emoji: '👀' }]);
    expect(fake.reactions).toEqual([{ chat_id: 42, message_id: id, emoji: ['👀'] }]);
    const refused = await rejection(
      api.raw.setMessageReaction({ chat_id: 42, message_id: id, reaction: [{ type: 'emoji', emoji: '✅' as '👍' }] }),
    );
    expect(refused).toMatchObject({ error_code: 400, description: 'Bad Request: REACTION_INVALID' });
  });
});
