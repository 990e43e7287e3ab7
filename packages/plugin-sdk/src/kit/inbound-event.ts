/** Building the MessageEvent an adapter hands the gateway. */
import type { Attachment, MessageEvent } from '@hermes/protocol';

/** What every event carries, whatever its kind. */
export type EventFields = Omit<MessageEvent, 'kind' | 'attachments'>;

/** A 'media' event when there are attachments (the text is then their caption), else a 'text' event. */
export function textOrMediaEvent(fields: EventFields, attachments: readonly Attachment[]): MessageEvent {
  return attachments.length > 0
    ? { ...fields, kind: 'media', attachments: [...attachments] }
    : { ...fields, kind: 'text' };
}
