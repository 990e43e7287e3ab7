/**
 * One event of signal-cli's `/api/v1/events` stream as what the gateway takes: a user's message
 * (text, mentions resolved, files still to fetch with `getAttachment`), or nothing with the reason
 * for the log (receipts, typing, the account's own sync messages, reactions, calls, a malformed
 * event). Never throws: an event signal-cli or a newer version sends that this adapter does not
 * know is skipped, not fatal.
 */
import { pendingAttachment, userMessage } from '@hermes/plugin-sdk';
import type { Attachment, MessageEvent } from '@hermes/protocol';
import { groupChatId, messageIdOf } from './addresses.js';
import { isRecord } from './rpc.js';
import { PLATFORM } from './settings.js';

type Json = Record<string, unknown>;

/** A file of a message, fetched with `getAttachment { id, recipient | groupId }`. */
export interface PendingSignalFile {
  /** signal-cli's attachment id (its file name in the attachments folder) */
  id: string;
  /** who sent it, or the group it came in: the params `getAttachment` needs besides the id */
  from: { recipient: string } | { groupId: string };
  fileName: string;
  attachment: Attachment;
}

/** Who the bot is: mentions and quotes name it by number or by UUID. */
export interface BotIdentity {
  account: string;
  uuid: string | undefined;
}

export type Inbound =
  | { kind: 'message'; event: MessageEvent; files: PendingSignalFile[] }
  | { kind: 'skip'; reason: string /** routine traffic (receipts, typing) is logged at debug */; routine: boolean };

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const skip = (reason: string, routine = false): Inbound => ({ kind: 'skip', reason, routine });

/** Whether an address (a mention, a quote's author) is the bot. */
const isBot = (bot: BotIdentity, number: unknown, uuid: unknown): boolean =>
  (typeof number === 'string' && number === bot.account) ||
  (typeof uuid === 'string' && bot.uuid !== undefined && uuid.toLowerCase() === bot.uuid);

/** The message text with each mention's placeholder (U+FFFC) as `@name`; the bot's own mention dropped. */
function withMentions(text: string, mentions: readonly Json[], bot: BotIdentity): string {
  const spans = mentions
    .filter((m) => Number.isInteger(m.start) && Number.isInteger(m.length))
    .sort((a, b) => (b.start as number) - (a.start as number));
  let out = text;
  for (const m of spans) {
    const start = m.start as number;
    const end = start + (m.length as number);
    if (start < 0 || end > out.length) continue;
    const name = isBot(bot, m.number, m.uuid) ? '' : `@${str(m.name) ?? str(m.number) ?? str(m.uuid) ?? 'someone'}`;
    out = `${out.slice(0, start)}${name}${out.slice(end)}`;
  }
  return out.replace(/^\s+/, '').replace(/ {2,}/g, ' ');
}

function files(list: unknown, from: PendingSignalFile['from']): PendingSignalFile[] {
  if (!Array.isArray(list)) return [];
  const out: PendingSignalFile[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const id = str(item.id);
    if (id === undefined) continue;
    const mimeType = str(item.contentType)?.split(';')[0]?.trim().toLowerCase();
    const size = typeof item.size === 'number' && item.size >= 0 ? item.size : undefined;
    const name = str(item.filename) ?? defaultName(mimeType);
    const { fileName, attachment } = pendingAttachment({ name, mimeType, size });
    out.push({ id, from, fileName, attachment });
  }
  return out;
}

/** `voice.aac` for a voice note without a name, `image.jpeg`, ... */
function defaultName(mimeType: string | undefined): string {
  const [major, minor] = (mimeType ?? 'application/octet-stream').split('/');
  const base = major === 'audio' ? 'voice' : major === 'image' ? 'image' : major === 'video' ? 'video' : 'file';
  const ext = minor?.replace(/^x-/, '').replace(/[^a-z0-9]/g, '');
  return ext ? `${base}.${ext}` : base;
}

/** What an envelope without a data message is, for the log. */
function otherKind(envelope: Json): Inbound {
  if (isRecord(envelope.receiptMessage)) return skip('a receipt', true);
  if (isRecord(envelope.typingMessage)) return skip('a typing indicator', true);
  if (isRecord(envelope.syncMessage)) return skip("a sync message from the account's other device", true);
  if (isRecord(envelope.callMessage)) return skip('a call (not handled)');
  if (isRecord(envelope.editMessage)) return skip('an edit of an earlier message (not handled)');
  if (isRecord(envelope.storyMessage)) return skip('a story (not handled)');
  return skip('an envelope of a kind this adapter does not know');
}

/**
 * Reads one event's JSON data (`{ envelope, account }`); `allowlisted` says whether a UUID is named
 * in an allowlist (then the user's id is the UUID, else the number when Signal shares it).
 */
export function readEnvelope(
  data: string,
  bot: BotIdentity,
  receivedAt: number,
  allowlisted: (uuid: string) => boolean = () => false,
): Inbound {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return skip('an event whose data is not JSON');
  }
  if (!isRecord(parsed)) return skip('an event whose data is not a JSON object');
  if (parsed.exception !== undefined && !isRecord(parsed.envelope))
    return skip('an event carrying only an error of signal-cli');
  const envelope = parsed.envelope;
  if (!isRecord(envelope)) return skip('an event without an envelope');
  const number =
    str(envelope.sourceNumber) ?? (str(envelope.source)?.startsWith('+') ? str(envelope.source) : undefined);
  const uuid = str(envelope.sourceUuid)?.toLowerCase();
  const author = number ?? uuid;
  if (author === undefined) return skip('an envelope without a sender');
  if (isBot(bot, number, uuid)) return skip("the account's own message", true);
  const data_ = envelope.dataMessage;
  if (!isRecord(data_)) return otherKind(envelope);
  if (isRecord(data_.reaction)) return skip('a reaction', true);
  if (isRecord(data_.remoteDelete)) return skip('a deletion of an earlier message', true);
  const timestamp = typeof envelope.timestamp === 'number' ? envelope.timestamp : data_.timestamp;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp)) return skip('a message without a timestamp');

  const groupId = isRecord(data_.groupInfo) ? str(data_.groupInfo.groupId) : undefined;
  const from: PendingSignalFile['from'] = groupId === undefined ? { recipient: author } : { groupId };
  const pending = files(data_.attachments, from);
  const mentions = Array.isArray(data_.mentions) ? data_.mentions.filter(isRecord) : [];
  const rawText = typeof data_.message === 'string' ? data_.message : '';
  if (rawText.trim() === '' && pending.length === 0) {
    return skip(isRecord(data_.sticker) ? 'a sticker (not handled)' : 'a message without text or files', true);
  }
  const quote = isRecord(data_.quote) ? data_.quote : undefined;
  const userId = uuid !== undefined && (number === undefined || allowlisted(uuid)) ? uuid : author;
  const name = str(envelope.sourceName);
  const { event } = userMessage(
    {
      messageId: messageIdOf(timestamp, author),
      source: {
        platform: PLATFORM,
        chatId: groupId === undefined ? author : groupChatId(groupId),
        chatType: groupId === undefined ? 'dm' : 'group',
        userId,
        ...(name === undefined ? {} : { userName: name }),
        ...(mentions.some((m) => isBot(bot, m.number, m.uuid)) ? { mentioned: true } : {}),
        ...(quote !== undefined && isBot(bot, quote.authorNumber ?? quote.author, quote.authorUuid)
          ? { repliedToBot: true }
          : {}),
      },
      receivedAt,
      raw: envelope,
      text: withMentions(rawText, mentions, bot),
    },
    pending,
  );
  return { kind: 'message', event, files: pending };
}
