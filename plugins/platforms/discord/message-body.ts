/** The JSON body of a message the bot sends: content, mention safety and embed suppression. */

/** SUPPRESS_EMBEDS (1 << 2): no link previews under the reply. */
export const SUPPRESS_EMBEDS_FLAG = 1 << 2;

export interface MessageBody {
  content: string;
  /** nobody is pinged by the text (no @everyone, roles or users); a reply still notifies its author */
  allowed_mentions: { parse: never[]; replied_user: boolean };
  flags?: number;
  message_reference?: { message_id: string; fail_if_not_exists: boolean };
  /** with enforce_nonce, Discord returns the message it already created for this nonce instead of a new one */
  nonce?: string;
  enforce_nonce?: boolean;
}

/** The body for `content`; `replyTo` threads it under that message (sent anyway if it is gone); `nonce` makes a repeat post once. */
export function messageBody(
  content: string,
  options: { suppressEmbeds: boolean; replyTo?: string; nonce?: string },
): MessageBody {
  return {
    content,
    allowed_mentions: { parse: [], replied_user: true },
    ...(options.suppressEmbeds ? { flags: SUPPRESS_EMBEDS_FLAG } : {}),
    ...(options.replyTo === undefined
      ? {}
      : { message_reference: { message_id: options.replyTo, fail_if_not_exists: false } }),
    ...(options.nonce === undefined ? {} : { nonce: options.nonce, enforce_nonce: true }),
  };
}
