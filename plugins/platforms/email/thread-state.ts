/**
 * What an answer needs of its thread, kept in platform state per chat (`chat:<chat id>`, written in
 * the same transaction as the mail's accept, so a restart still answers in the thread): the subject
 * (`Re:` is added), the Message-ID answered (In-Reply-To) and the References chain.
 */

export interface ChatThread {
  /** the thread's subject without reply prefixes */
  subject: string;
  /** the Message-ID of the newest mail taken in this chat: the answer's In-Reply-To */
  last: string;
  /** the answer's References (ids without brackets), oldest first */
  references: string[];
}

const KEY_PREFIX = 'chat:';

export const chatStateKey = (chatId: string): string => `${KEY_PREFIX}${chatId}`;

/** The state entry of a chat's thread. */
export function encodeChatThread(chatId: string, thread: ChatThread): { key: string; value: string } {
  return { key: chatStateKey(chatId), value: JSON.stringify(thread) };
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** A chat's thread as stored; undefined when none is (or the value is not one). */
export function decodeChatThread(value: string | undefined): ChatThread | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>;
    if (typeof parsed.subject !== 'string' || typeof parsed.last !== 'string' || !isStringList(parsed.references)) {
      return undefined;
    }
    return { subject: parsed.subject, last: parsed.last, references: parsed.references };
  } catch {
    return undefined;
  }
}
