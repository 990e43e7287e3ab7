/**
 * The normalized inbound message: a union on `kind`, each carrying its platform, its source and
 * the raw platform payload.
 */
export type ChatType = 'dm' | 'group' | 'channel' | 'thread';

export interface SessionSource {
  platform: string;
  chatId: string;
  chatType: ChatType;
  userId: string;
  userName?: string;
  threadId?: string;
  /** True when the bot was @-mentioned. */
  mentioned?: boolean;
  /** True when the message replies to one of the bot's messages. */
  repliedToBot?: boolean;
}

export interface Attachment {
  kind: 'photo' | 'document' | 'audio' | 'video' | 'other';
  /** local path in the attachment cache, once downloaded */
  path: string | null;
  fileName?: string;
  mimeType?: string;
  size?: number;
  /** why the file was not downloaded though it could have been (the sender is a stranger, or over their daily upload quota) */
  refused?: string;
}

interface EventBase {
  platform: string;
  messageId: string;
  source: SessionSource;
  /** System-generated events skip pre_gateway_dispatch and authorization. */
  internal: boolean;
  receivedAt: number;
  raw: unknown;
}

export interface TextMessageEvent extends EventBase {
  kind: 'text';
  text: string;
  attachments?: Attachment[];
}

export interface MediaMessageEvent extends EventBase {
  kind: 'media';
  /** caption, possibly empty */
  text: string;
  attachments: Attachment[];
}

export type MessageEvent = TextMessageEvent | MediaMessageEvent;
