/**
 * The envelope of a WhatsApp webhook POST, read defensively: `object: whatsapp_business_account`,
 * `entry[].changes[]` with `field: messages` and a `value` holding `messages`, `statuses`,
 * `contacts` and `errors`. What does not fit is named in `problems` (logged), never thrown:
 * a signed but odd payload must not stop the others in the same POST, nor the daemon.
 */
import { isRecord } from './graph-api.js';

type Json = Record<string, unknown>;

/** One inbound message as the API sends it (its type's object is read by normalize.ts). */
export interface WaMessage extends Json {
  id: string;
  from: string;
  type: string;
  timestamp?: string;
}

/** A delivery status of a message the bot sent. */
export interface WaStatus {
  id: string;
  status: string;
  recipientId?: string;
  /** `131047 Re-engagement message: <details>` for a failed one */
  errors: string[];
}

export interface WebhookContents {
  /** each message with its sender's profile name and the business number it was sent to */
  messages: { message: WaMessage; contactName?: string; phoneNumberId?: string }[];
  statuses: WaStatus[];
  /** change fields other than `messages` (account updates, templates, ...), ignored */
  otherFields: string[];
  /** what could not be read, for the log */
  problems: string[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `131047 Re-engagement message: details` for each error object Meta attached. */
export function errorTexts(value: unknown): string[] {
  return list(value)
    .filter(isRecord)
    .map((e) => {
      const details = isRecord(e.error_data) ? text(e.error_data.details) : undefined;
      const title = text(e.title) ?? text(e.message) ?? 'error';
      return `${typeof e.code === 'number' ? `${e.code} ` : ''}${title}${details === undefined ? '' : `: ${details}`}`;
    });
}

function readStatus(value: unknown, problems: string[]): WaStatus | undefined {
  if (!isRecord(value) || text(value.id) === undefined || text(value.status) === undefined) {
    problems.push('a status without an id or status');
    return undefined;
  }
  const recipientId = text(value.recipient_id);
  return {
    id: value.id as string,
    status: value.status as string,
    ...(recipientId === undefined ? {} : { recipientId }),
    errors: errorTexts(value.errors),
  };
}

function readValue(value: Json, out: WebhookContents): void {
  const phoneNumberId = isRecord(value.metadata) ? text(value.metadata.phone_number_id) : undefined;
  const names = new Map<string, string>();
  for (const contact of list(value.contacts)) {
    if (!isRecord(contact)) continue;
    const id = text(contact.wa_id);
    const name = isRecord(contact.profile) ? text(contact.profile.name) : undefined;
    if (id !== undefined && name !== undefined) names.set(id, name);
  }
  for (const message of list(value.messages)) {
    if (
      !isRecord(message) ||
      text(message.id) === undefined ||
      text(message.from) === undefined ||
      text(message.type) === undefined
    ) {
      out.problems.push('a message without an id, sender or type');
      continue;
    }
    const typed = message as WaMessage;
    const contactName = names.get(typed.from);
    out.messages.push({
      message: typed,
      ...(contactName === undefined ? {} : { contactName }),
      ...(phoneNumberId === undefined ? {} : { phoneNumberId }),
    });
  }
  for (const status of list(value.statuses)) {
    const read = readStatus(status, out.problems);
    if (read !== undefined) out.statuses.push(read);
  }
  for (const error of errorTexts(value.errors)) out.problems.push(`the API reported: ${error}`);
}

/** Walks a webhook body; never throws. */
export function readWebhook(body: unknown): WebhookContents {
  const out: WebhookContents = { messages: [], statuses: [], otherFields: [], problems: [] };
  if (!isRecord(body)) {
    out.problems.push('the body is not a JSON object');
    return out;
  }
  if (body.object !== 'whatsapp_business_account') {
    out.problems.push(`object is ${JSON.stringify(body.object ?? null)}, not "whatsapp_business_account"`);
    return out;
  }
  if (!Array.isArray(body.entry)) out.problems.push('no entry list');
  for (const entry of list(body.entry)) {
    if (!isRecord(entry) || !Array.isArray(entry.changes)) {
      out.problems.push('an entry without a changes list');
      continue;
    }
    for (const change of entry.changes) {
      if (!isRecord(change)) {
        out.problems.push('a change that is not an object');
        continue;
      }
      const field = text(change.field) ?? '(none)';
      if (field !== 'messages') out.otherFields.push(field);
      else if (!isRecord(change.value)) out.problems.push('a messages change without a value');
      else readValue(change.value, out);
    }
  }
  return out;
}
