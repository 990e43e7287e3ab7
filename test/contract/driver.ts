// The one interface every platform's contract-suite driver implements. A driver owns a fake
// platform server on 127.0.0.1 and the real platform plugin's factory; the suite
// (test/contract/platform-contract.test.ts) runs the same scenarios through each driver against a
// real in-process Gateway (real SQLite, real Fastify on 127.0.0.1, the fake OpenAI server).
import type { PlatformFactory } from '@hermes/protocol';

export interface ContractUser {
  /** the platform's user id (as the adapter puts it in SessionSource.userId) */
  id: string;
  name: string;
}

/** One text message the bot sent, as the fake recorded it. */
export interface SentText {
  /** the chat/channel id as the adapter uses it (SessionSource.chatId) */
  chatId: string;
  /** thread (Slack thread_ts, Discord thread channel id, Telegram topic) when the reply went into one */
  threadId?: string;
  /** the text with the platform's formatting markup removed or as sent; used for content checks */
  text: string;
}

/** One file the bot uploaded as a native attachment, as the fake recorded it. */
export interface SentFile {
  chatId: string;
  threadId?: string;
  fileName: string;
  /** `image`: a photo / inline image (Telegram sendPhoto, an image attachment); `voice`: a voice note (Telegram sendVoice); else `document` */
  kind: 'image' | 'document' | 'voice';
  size: number;
  /** hex sha256 of the uploaded bytes */
  sha256: string;
}

/** An inbound message the driver injected; `redeliver` makes the platform deliver the same event again. */
export interface InboundRef {
  messageId: string;
  /** where the bot's answer to it is expected (chat id, SentText.chatId) */
  chatId: string;
  redeliver(): Promise<void>;
}

/** A file a user sends in a message (the media scenarios). */
export interface ContractFile {
  /** photo: the platform's image message; voice: a voice note (OGG/Opus); document: any other file */
  kind: 'photo' | 'voice' | 'document';
  name: string;
  mimeType: string;
  data: Buffer;
}

/** A message the bot sent with approval buttons, as the fake holds it now. */
export interface ButtonPrompt {
  /** the platform's id of the message (what pressButton takes) */
  id: string;
  text: string;
  /** the buttons' labels, as first sent */
  labels: string[];
  /** the buttons are still attached */
  open: boolean;
}

/** What a platform that edits and reacts lets the contract suite see (streamed answers, reactions). */
export interface EditProbe {
  /** every message the bot posted since reset, with the id the adapter reported for it */
  posted(): { id: string; chatId: string; text: string }[];
  /** every successful edit since reset, in order */
  edits(): { id: string; text: string }[];
  /** the bot's reactions on a user's message now (the platform's own names) */
  reactionsOn(ref: InboundRef): string[];
  /** the platform's own name for a status emoji (Telegram: ✅ is 👍; Slack: ✅ is white_check_mark) */
  native(emoji: string): string;
  /** the next edit answers 429 with this retry-after (the platform's own 429 shape) */
  rateLimitNextEdit(retryAfterMs: number): void;
  /** the next `count` edits are refused as the platform refuses an edit of a deleted message */
  refuseNextEdits(count: number): void;
}

export interface PlatformDriver {
  /** present for platforms whose adapter edits messages and sets reactions */
  readonly edits?: EditProbe;
  /** the adapter's platform name, e.g. 'discord' */
  readonly platform: string;
  /** a label for test names, e.g. 'slack (socket mode)' */
  readonly label: string;
  readonly factory: PlatformFactory;
  /** the adapter's capabilities.maxMessageLength */
  readonly maxMessageLength: number;
  /** the index-th distinct test user (0, 1, 2, ...), with an id of the platform's own shape */
  user(index: number): ContractUser;
  /** starts the fake(s); called once before the suite */
  start(): Promise<void>;
  /** stops the fake(s); called once after the suite */
  close(): Promise<void>;
  /** clears recorded calls, scripted failures and queued events between tests (connections stay) */
  reset(): void;
  /** the gateway's env: credentials pointing at the fake, plus `<PLATFORM>_ALLOWED_USERS` from `allowed` */
  env(allowed: ContractUser[]): Record<string, string>;
  /** `gateway.platforms.<platform>` settings (api base pointing at the fake, mode, ...) */
  settings(): Record<string, unknown>;
  /** for platforms whose events arrive over HTTP: the gateway's base URL (http://127.0.0.1:PORT) */
  useGatewayUrl(url: string): void;
  /** resolves once a freshly started adapter is connected and ready to receive events */
  waitReady(): Promise<void>;
  /** a direct message from `user` */
  dm(user: ContractUser, text: string): Promise<InboundRef>;
  /**
   * a message in a group/guild channel, @-mentioning the bot when `mention`; absent for a platform
   * without group chats (WhatsApp's Cloud API: one user with the business number)
   */
  group?(user: ContractUser, text: string, options: { mention: boolean }): Promise<InboundRef>;
  /**
   * a reply in the thread a group message `parent` started, where the bot answers it; present where
   * a group's answers go into such a thread (Slack), absent where they go to the group itself
   */
  threadReply?(user: ContractUser, text: string, parent: InboundRef): Promise<InboundRef>;
  /**
   * a direct message from `user` with `files` and `text` as its caption, the way the platform
   * carries files (Telegram: one file a message, several as an album); absent when the platform
   * takes no files
   */
  dmFiles?(user: ContractUser, text: string, files: readonly ContractFile[]): Promise<InboundRef>;
  /** true where a message carries one file at most (WhatsApp): the several-files-in-one-message scenario is skipped */
  readonly oneFilePerMessage?: boolean;
  /**
   * true where no app cuts a long text into several messages (a mail is one message at any length):
   * the split-paste batching scenario is skipped
   */
  readonly noCutPastes?: boolean;
  /** every text message the bot sent since the last reset, in order */
  sent(): SentText[];
  /** every file the bot uploaded since the last reset, in order (absent: the platform takes no files) */
  sentFiles?(): SentFile[];
  /** the next file upload is refused by the platform (its own error shape) */
  failNextUpload?(): void;
  /** the next message send answers 429 with this retry-after (the platform's own 429 shape) */
  rateLimitNextSend(retryAfterMs: number): void;
  /**
   * breaks the live connection the way the platform does (Discord: the gateway closes the socket;
   * Slack socket mode: the socket goes silent; Telegram polling: getUpdates connections reset);
   * for HTTP-only modes a no-op
   */
  dropConnection(): Promise<void>;
  /** connections the adapter opened to the fake so far (sockets, or 0 for HTTP-only modes) */
  connectionCount(): number;
  /** connections open right now (never more than one for a socket platform) */
  openConnections(): number;
  /** messages sent with approval buttons since the last reset (absent: the platform has no buttons) */
  buttonPrompts?(): ButtonPrompt[];
  /** `user` presses the button labelled `label` under prompt `promptId`; resolves with the text shown to the presser */
  pressButton?(user: ContractUser, promptId: string, label: string): Promise<string>;
}
