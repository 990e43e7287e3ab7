// The webhook side of the fake WhatsApp Cloud API: payloads shaped as Meta sends them
// (`whatsapp_business_account` → entry[].changes[] with field `messages`), signed with
// `X-Hub-Signature-256: sha256=HMAC_SHA256(app secret, raw body)`, and POSTed to the gateway.
import { createHmac } from 'node:crypto';

export interface WebhookSender {
  /** the user's WhatsApp id (digits with the country code) */
  from: string;
  /** the profile name Meta reports in `contacts` */
  name?: string;
}

/** One inbound message object (`messages[i]`) as Meta sends it. */
export type WaInboundMessage = Record<string, unknown> & { id: string; from: string; type: string };

export interface WebhookBuilders {
  /** the `value` of a messages change around `messages` and/or `statuses` */
  envelope(parts: {
    messages?: WaInboundMessage[];
    statuses?: Record<string, unknown>[];
    sender?: WebhookSender;
  }): unknown;
  text(sender: WebhookSender, body: string): WaInboundMessage;
  /** a file message (`image`, `audio` with `voice`, `document`, `video`, `sticker`) by a media id the fake serves */
  media(
    sender: WebhookSender,
    type: 'image' | 'audio' | 'document' | 'video' | 'sticker',
    media: { id: string; mimeType: string; caption?: string; filename?: string; voice?: boolean },
  ): WaInboundMessage;
  /** a press of one of the bot's reply buttons (`interactive.button_reply`), quoting the message it was under */
  buttonReply(sender: WebhookSender, button: { id: string; title: string }, contextMessageId: string): WaInboundMessage;
  /** a delivery status of a message the bot sent (`failed` with a Meta error) */
  status(
    messageId: string,
    recipient: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    error?: { code: number; title: string },
  ): Record<string, unknown>;
}

/** The header value Meta would send for `rawBody`. */
export function signWebhook(rawBody: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Builders for one business number (`phoneNumberId`, shown as `displayNumber`). */
export function webhookBuilders(options: {
  phoneNumberId: string;
  displayNumber: string;
  wabaId?: string;
}): WebhookBuilders {
  let seq = 0;
  const wamid = () => `wamid.HBgL${Date.now().toString(36).toUpperCase()}${(seq++).toString(36).toUpperCase()}FAKE==`;
  const stamp = () => String(Math.floor(Date.now() / 1000));
  const base = (sender: WebhookSender, type: string) => ({ from: sender.from, id: wamid(), timestamp: stamp(), type });
  return {
    envelope: ({ messages, statuses, sender }) => {
      const from = sender ?? (messages?.[0] === undefined ? undefined : { from: messages[0].from });
      return {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: options.wabaId ?? '102290129340398',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: options.displayNumber, phone_number_id: options.phoneNumberId },
                  ...(messages === undefined || from === undefined
                    ? {}
                    : { contacts: [{ profile: { name: sender?.name ?? `user ${from.from}` }, wa_id: from.from }] }),
                  ...(messages === undefined ? {} : { messages }),
                  ...(statuses === undefined ? {} : { statuses }),
                },
              },
            ],
          },
        ],
      };
    },
    text: (sender, body) => ({ ...base(sender, 'text'), text: { body } }),
    media: (sender, type, media) => ({
      ...base(sender, type),
      [type]: {
        id: media.id,
        mime_type: media.mimeType,
        sha256: 'ZmFrZS1zaGEyNTY=',
        ...(media.caption === undefined ? {} : { caption: media.caption }),
        ...(media.filename === undefined ? {} : { filename: media.filename }),
        ...(media.voice === undefined ? {} : { voice: media.voice }),
      },
    }),
    buttonReply: (sender, button, contextMessageId) => ({
      ...base(sender, 'interactive'),
      context: { from: options.displayNumber, id: contextMessageId },
      interactive: { type: 'button_reply', button_reply: button },
    }),
    status: (messageId, recipient, status, error) => ({
      id: messageId,
      status,
      timestamp: stamp(),
      recipient_id: recipient,
      ...(error === undefined
        ? {}
        : { errors: [{ code: error.code, title: error.title, error_data: { details: `${error.title} (fake)` } }] }),
    }),
  };
}

/** POSTs `payload` to the gateway's webhook, signed with `appSecret` (or with `signature` as given; null: unsigned). */
export async function postWebhook(
  url: string,
  payload: unknown,
  sign: { appSecret: string } | { signature: string | null },
): Promise<Response> {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const signature = 'appSecret' in sign ? signWebhook(raw, sign.appSecret) : sign.signature;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    },
    body: raw,
  });
}
