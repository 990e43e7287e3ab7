/**
 * Untrusted updates (a webhook body, a getUpdates result) checked before normalizeUpdate reads
 * them: every field it uses must have the Bot API's type. A malformed update is skipped with the
 * reason, never thrown on (a throw would fail the webhook with 500 or stall the polling loop).
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isInteger = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value);

function optional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || value === null || check(value);
}

const isString = (value: unknown): boolean => typeof value === 'string';
const isIdHolder = (value: unknown): boolean => isRecord(value) && isInteger(value.id);
/** a user or chat: an integer id, and the name fields normalizeUpdate reads as strings */
const isNamed = (value: unknown): boolean =>
  isIdHolder(value) &&
  ['username', 'first_name', 'last_name', 'title'].every((key) => optional((value as Json)[key], isString));
const isEntity = (value: unknown): boolean =>
  isRecord(value) &&
  isString(value.type) &&
  isInteger(value.offset) &&
  isInteger(value.length) &&
  (value.type === 'text_mention' ? isIdHolder(value.user) : optional(value.user, isIdHolder));
const isEntities = (value: unknown): boolean => Array.isArray(value) && value.every(isEntity);
const isFile = (value: unknown): boolean =>
  isRecord(value) &&
  isString(value.file_id) &&
  isString(value.file_unique_id) &&
  optional(value.file_name, isString) &&
  optional(value.mime_type, isString) &&
  optional(value.file_size, isInteger);
const isPhotoSize = (value: unknown): boolean =>
  isFile(value) && isInteger((value as Json).width) && isInteger((value as Json).height);

/** What is wrong with a message object, or null. */
function messageProblem(message: unknown): string | null {
  if (!isRecord(message)) return 'message is not an object';
  if (!isInteger(message.message_id)) return 'message.message_id is not an integer';
  if (!isRecord(message.chat) || !isInteger(message.chat.id) || !isString(message.chat.type)) {
    return 'message.chat is not a chat with an integer id and a type';
  }
  if (!optional(message.from, isNamed)) return 'message.from is not a user with an integer id';
  if (!optional(message.sender_chat, isNamed)) return 'message.sender_chat is not a chat with an integer id';
  for (const key of ['text', 'caption'] as const) {
    if (!optional(message[key], isString)) return `message.${key} is not a string`;
  }
  for (const key of ['entities', 'caption_entities'] as const) {
    if (!optional(message[key], isEntities)) return `message.${key} is not a list of entities`;
  }
  if (!optional(message.photo, (v) => Array.isArray(v) && v.length > 0 && v.every(isPhotoSize))) {
    return 'message.photo is not a non-empty list of photo sizes';
  }
  for (const key of ['document', 'audio', 'voice', 'video'] as const) {
    if (!optional(message[key], isFile)) return `message.${key} is not a file`;
  }
  if (!optional(message.message_thread_id, isInteger)) return 'message.message_thread_id is not an integer';
  const reply = message.reply_to_message;
  if (!optional(reply, (v) => isRecord(v) && optional(v.from, isIdHolder))) {
    return 'message.reply_to_message is not a message';
  }
  return null;
}

/** What is wrong with a callback query (a button press), or null. */
function callbackQueryProblem(query: unknown): string | null {
  if (!isRecord(query)) return 'callback_query is not an object';
  if (!isString(query.id)) return 'callback_query.id is not a string';
  if (!isIdHolder(query.from)) return 'callback_query.from is not a user with an integer id';
  if (!optional(query.data, isString)) return 'callback_query.data is not a string';
  const message = query.message;
  if (!optional(message, (v) => isRecord(v) && isIdHolder(v.chat))) return 'callback_query.message has no chat';
  return null;
}

/** Why the update cannot be read, or null when normalizeUpdate may read it. */
export function updateProblem(update: unknown): string | null {
  if (!isRecord(update)) return 'the update is not an object';
  if (!isInteger(update.update_id)) return 'update_id is not an integer';
  if (update.callback_query !== undefined) return callbackQueryProblem(update.callback_query);
  return update.message === undefined ? null : messageProblem(update.message);
}
