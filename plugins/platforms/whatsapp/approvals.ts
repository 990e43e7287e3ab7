/**
 * Buttons in a WhatsApp chat: an approval prompt, or a message with action buttons, as an
 * interactive message with reply buttons (at most 3, titles at most 20 characters, a body of at
 * most 1,024). An approval offers *Allow once*, *Allow this session* and *Deny*; *Always allow* is
 * the typed `/approve always` (the prompt says so). A press arrives as an `interactive.button_reply`
 * message: handed to the gateway, and its answer sent to the presser as a message (WhatsApp has no
 * toast). Sent messages cannot be edited, so a prompt keeps its buttons; a later press is answered
 * "no longer waiting".
 */
import { approvalButtons, pressApproval } from '@hermes/plugin-sdk';
import type { ApprovalPromptMessage, ButtonMessage, InboundSink, Logger, SendResult } from '@hermes/protocol';
import { postMessage, type Sender } from './send-message.js';
import { PLATFORM } from './settings.js';

export const MAX_BUTTONS = 3;
export const MAX_TITLE_CHARS = 20;
export const MAX_BODY_CHARS = 1_024;

/** The body within 1,024 characters: the longest line (the command) is cut first, marked with …. */
export function fitBody(text: string): string {
  if (text.length <= MAX_BODY_CHARS) return text;
  const lines = text.split('\n');
  let longest = 0;
  lines.forEach((line, i) => {
    if (line.length > (lines[longest]?.length ?? 0)) longest = i;
  });
  const over = text.length - MAX_BODY_CHARS + 1;
  const line = lines[longest] ?? '';
  if (line.length > over) lines[longest] = `${line.slice(0, line.length - over)}…`;
  const fitted = lines.join('\n');
  return fitted.length <= MAX_BODY_CHARS ? fitted : `${fitted.slice(0, MAX_BODY_CHARS - 1)}…`;
}

const title = (label: string): string =>
  label.length <= MAX_TITLE_CHARS ? label : `${label.slice(0, MAX_TITLE_CHARS - 1)}…`;

/** A text with up to three reply buttons (approval answers or action buttons). */
export function sendButtons(
  sender: Sender,
  message: Pick<ButtonMessage, 'chatId' | 'text' | 'buttons'> & { replyToMessageId?: string | undefined },
): Promise<SendResult> {
  const buttons = message.buttons
    .slice(0, MAX_BUTTONS)
    .map((b) => ({ type: 'reply', reply: { id: b.data, title: title(b.label) } }));
  return postMessage(
    sender,
    message.chatId,
    {
      type: 'interactive',
      interactive: { type: 'button', body: { text: fitBody(message.text) }, action: { buttons } },
    },
    message.replyToMessageId,
  );
}

/** The approval prompt: Allow once, Allow this session, Deny (three buttons, WhatsApp's most). */
export function askApproval(sender: Sender, prompt: ApprovalPromptMessage): Promise<SendResult> {
  const buttons = approvalButtons(prompt.approvalId).filter((b) => b.answer !== 'always');
  return sendButtons(sender, {
    chatId: prompt.chatId,
    text: prompt.text,
    buttons,
    replyToMessageId: prompt.replyToMessageId,
  });
}

/** A press: to the gateway, then its answer to the presser. */
export async function handlePress(
  press: { data: string; userId: string; messageId: string },
  options: { sink: InboundSink; sender: Sender; logger: Logger },
): Promise<void> {
  const text = await pressApproval(options.sink, PLATFORM, press.data, press.userId, press.userId);
  const sent = await postMessage(
    options.sender,
    press.userId,
    { type: 'text', text: { body: text, preview_url: false } },
    press.messageId,
  );
  if (!sent.ok) options.logger.warn({ error: sent.message }, 'whatsapp: the answer to a button press was not sent');
}
