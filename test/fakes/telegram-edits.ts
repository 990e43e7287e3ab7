// editMessageText and setMessageReaction of the fake Telegram Bot API, as Telegram answers them.

type Json = Record<string, unknown>;

/** One successful editMessageText, in the order received. */
export interface EditedMessage {
  chat_id: number | string;
  message_id: number;
  text: string;
  parse_mode?: string;
  body: Json;
}

/** One successful setMessageReaction: the emoji the bot's reaction is now (empty: removed). */
export interface SetReaction {
  chat_id: number | string;
  message_id: number;
  emoji: string[];
}

/** Telegram's list of reaction emoji (Bot API, ReactionTypeEmoji); anything else is REACTION_INVALID. */
export const TELEGRAM_REACTION_EMOJI: ReadonlySet<string> = new Set(
  '👍 👎 ❤ 🔥 🥰 👏 😁 🤔 🤯 😱 🤬 😢 🎉 🤩 🤮 💩 🙏 👌 🕊 🤡 🥱 🥴 😍 🐳 ❤‍🔥 🌚 🌭 💯 🤣 ⚡ 🍌 🏆 💔 🤨 😐 🍓 🍾 💋 🖕 😈 😴 😭 🤓 👻 👨‍💻 👀 🎃 🙈 😇 😨 🤝 ✍ 🤗 🫡 🎅 🎄 ☃ 💅 🤪 🗿 🆒 💘 🙉 🦄 😘 💊 🙊 😎 👾 🤷‍♂ 🤷 🤷‍♀ 😡'.split(
    ' ',
  ),
);

interface Answer {
  status: number;
  body: object;
}

export interface EditDeps {
  /** the text a bot message shows now (by chat id and message id), undefined when there is none */
  current(chatId: unknown, messageId: number): string | undefined;
  update(chatId: unknown, messageId: number, text: string): void;
  /** the newest message id handed out (user and bot messages share the counter) */
  lastMessageId(): number;
  parseHtml(html: string): { ok: true; text: string } | { ok: false; description: string };
  error(status: number, description: string): Answer;
  success(result: unknown): Answer;
  maxLength: number;
}

export function telegramEditMethods(deps: EditDeps, edits: EditedMessage[], reactions: SetReaction[]) {
  function editMessageText(body: Json): Answer {
    const chatId = body.chat_id;
    const messageId = body.message_id;
    if (typeof messageId !== 'number') return deps.error(400, 'Bad Request: message identifier is not specified');
    const before = deps.current(chatId, messageId);
    if (before === undefined) return deps.error(400, 'Bad Request: message to edit not found');
    const raw = typeof body.text === 'string' ? body.text : '';
    const parseMode = typeof body.parse_mode === 'string' && body.parse_mode !== '' ? body.parse_mode : undefined;
    const parsed = parseMode === 'HTML' ? deps.parseHtml(raw) : { ok: true as const, text: raw };
    if (!parsed.ok) return deps.error(400, parsed.description);
    if (parsed.text.trim() === '') return deps.error(400, 'Bad Request: message text is empty');
    if (parsed.text.length > deps.maxLength) return deps.error(400, 'Bad Request: MESSAGE_TOO_LONG');
    if (parsed.text === before) {
      return deps.error(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    deps.update(chatId, messageId, parsed.text);
    edits.push({
      chat_id: chatId as number | string,
      message_id: messageId,
      text: raw,
      ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
      body,
    });
    return deps.success({ message_id: messageId, chat: { id: chatId }, date: 0, edit_date: 0, text: parsed.text });
  }

  function setMessageReaction(body: Json): Answer {
    const messageId = body.message_id;
    if (typeof messageId !== 'number' || messageId < 1 || messageId > deps.lastMessageId()) {
      return deps.error(400, 'Bad Request: message to react not found');
    }
    const list = Array.isArray(body.reaction) ? (body.reaction as unknown[]) : [];
    const emoji: string[] = [];
    for (const entry of list) {
      const value = typeof entry === 'object' && entry !== null ? (entry as Json).emoji : undefined;
      if (typeof value !== 'string' || !TELEGRAM_REACTION_EMOJI.has(value)) {
        return deps.error(400, 'Bad Request: REACTION_INVALID');
      }
      emoji.push(value);
    }
    if (emoji.length > 1) return deps.error(400, 'Bad Request: REACTIONS_TOO_MANY');
    reactions.push({ chat_id: body.chat_id as number | string, message_id: messageId, emoji });
    return deps.success(true);
  }

  return { editMessageText, setMessageReaction };
}
