/**
 * The normalized inbound message. The gateway issue extends the union with more kinds;
 * every kind carries its platform, its source and the raw platform payload.
 */
export type ChatType = 'dm' | 'group' | 'channel' | 'thread';

export interface SessionSource {
  platform: string;
  chatId: string;
  chatType: ChatType;
  userId: string;
  userName?: string;
  threadId?: string;
  /** True when the bot was mentioned or replied to in a group. */
  mentioned?: boolean;
}

export interface TextMessageEvent {
  kind: 'text';
  platform: string;
  messageId: string;
  text: string;
  source: SessionSource;
  /** System-generated events skip pre_gateway_dispatch and authorization. */
  internal: boolean;
  receivedAt: number;
  raw: unknown;
}

export type MessageEvent = TextMessageEvent;
