/**
 * How mail threads are named in the gateway. A thread is its own chat (so its own session): the
 * chat id is `<sender address>#<thread key>`, the key 12 hex digits of the SHA-256 of the thread's
 * first Message-ID. The bot's own Message-IDs carry the key (`<hermes.<key>.<token>@domain>`), so
 * a reply that names only the bot's mail (In-Reply-To, no References) still lands in its thread.
 * A message id is the mail's Message-ID without its angle brackets; a mail without one is named by
 * the SHA-256 of its bytes (the same mail delivered twice is still one message).
 */
import { createHash } from 'node:crypto';

const KEY_LENGTH = 12;
const OWN_ID = /^hermes\.([0-9a-f]{12})\.[A-Za-z0-9_-]+@/;
/** a Message-ID longer than this is named by its hash (a hostile header, not a real id) */
const MAX_ID_LENGTH = 250;

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * A Message-ID (`<id@host>`, as in Message-ID, In-Reply-To or a References entry) without its
 * brackets; undefined when there is none. Control characters and spaces are never part of one.
 */
export function normalizeMessageId(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const inner = /<([^<>]*)>/.exec(raw)?.[1] ?? raw;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const id = inner.replace(/[\s\u0000-\u001f\u007f]+/g, '');
  if (id === '') return undefined;
  return id.length > MAX_ID_LENGTH ? `sha256-${sha256(id).slice(0, 32)}` : id;
}

/** Every Message-ID of a References (or In-Reply-To) header, in order. */
export function messageIdList(raw: string | readonly string[] | undefined): string[] {
  const text = Array.isArray(raw) ? raw.join(' ') : typeof raw === 'string' ? raw : '';
  const ids: string[] = [];
  for (const match of text.matchAll(/<([^<>]+)>/g)) {
    const id = normalizeMessageId(`<${match[1] ?? ''}>`);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The id of a mail without a Message-ID: the hash of its bytes. */
export const contentMessageId = (source: Uint8Array): string => `sha256-${sha256(source).slice(0, 32)}`;

/** The thread key one of the bot's own Message-IDs carries, if it is one. */
export const threadOfOwnId = (id: string): string | undefined => OWN_ID.exec(id)?.[1];

/** The key of the thread whose first mail has this Message-ID. */
export const threadKeyOfRoot = (rootId: string): string => threadOfOwnId(rootId) ?? sha256(rootId).slice(0, KEY_LENGTH);

/** A new thread's key (the bot writes first: a scheduled job's message to an address). */
export const newThreadKey = (seed: string): string => sha256(`new:${seed}`).slice(0, KEY_LENGTH);

/**
 * The thread a mail belongs to: the thread of the bot's mail it answers, else of the first mail its
 * References name, else of the mail it answers, else its own.
 */
export function threadKeyOf(mail: { messageId: string; inReplyTo: readonly string[]; references: readonly string[] }) {
  for (const id of [...mail.inReplyTo, ...mail.references]) {
    const own = threadOfOwnId(id);
    if (own !== undefined) return own;
  }
  return threadKeyOfRoot(mail.references[0] ?? mail.inReplyTo[0] ?? mail.messageId);
}

/** The chat of a sender's thread. */
export const chatIdOf = (address: string, threadKey: string): string => `${address}#${threadKey}`;

/** A chat id as its address and thread; a bare address (a message the bot starts) has no thread. */
export function parseChatId(chatId: string): { address: string; threadKey: string | undefined } {
  const at = chatId.lastIndexOf('#');
  const key = at === -1 ? '' : chatId.slice(at + 1);
  if (at > 0 && /^[0-9a-f]{12}$/.test(key)) return { address: chatId.slice(0, at), threadKey: key };
  return { address: chatId, threadKey: undefined };
}

/** The Message-ID of a mail the bot sends in a thread; `token` (the outbox's idempotency key) makes a repeat the same mail. */
export function ownMessageId(threadKey: string, token: string, domain: string): string {
  const safe = token.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'x';
  return `hermes.${threadKey}.${safe}@${domain}`;
}
