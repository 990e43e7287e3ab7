/** Building the MessageEvent an adapter hands the gateway. */
import type { Attachment, MessageEvent, SessionSource } from '@hermes/protocol';

/** What every event carries, whatever its kind. */
export type EventFields = Omit<MessageEvent, 'kind' | 'attachments'>;

/** A 'media' event when there are attachments (the text is then their caption), else a 'text' event. */
export function textOrMediaEvent(fields: EventFields, attachments: readonly Attachment[]): MessageEvent {
  return attachments.length > 0
    ? { ...fields, kind: 'media', attachments: [...attachments] }
    : { ...fields, kind: 'text' };
}

/** What a user's message says about itself; the platform is `source.platform`. */
export interface UserMessageFields {
  messageId: string;
  source: SessionSource;
  receivedAt: number;
  /** the platform's payload, kept as the event's `raw` */
  raw: unknown;
  text: string;
}

/** A user's message (never internal) and the files whose attachments it lists, still to download. */
export interface UserMessage<F extends { attachment: Attachment }> {
  event: MessageEvent;
  files: F[];
}

/** The event of a user's message with `files` as its attachments ('media' when there are any, else 'text'). */
export function userMessage<F extends { attachment: Attachment }>(
  fields: UserMessageFields,
  files: F[],
): UserMessage<F> {
  const event = textOrMediaEvent(
    { platform: fields.source.platform, ...fields, internal: false },
    files.map((file) => file.attachment),
  );
  return { event, files };
}
