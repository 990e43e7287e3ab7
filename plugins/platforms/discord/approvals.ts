/**
 * Buttons in a Discord chat (approval prompts, action buttons such as a cron job's *Cancel*): the
 * prompt as a channel message with a row of buttons (message
 * components), a press as an INTERACTION_CREATE of type 3 (MESSAGE_COMPONENT) answered with an
 * ephemeral reply only the presser sees, and the prompt edited (text replaced, buttons removed)
 * once it is answered or expired.
 */
import { approvalButtons, pressApproval } from '@hermes/plugin-sdk';
import type { ApprovalPromptMessage, ButtonMessage, InboundSink, Logger, SendResult } from '@hermes/protocol';
import { type REST, Routes } from 'discord.js';
import { describeError } from './error-text.js';
import { messageBody } from './message-body.js';
import { PLATFORM } from './normalize.js';
import { toSendFailure } from './send-errors.js';

/** MESSAGE_COMPONENT */
export const INTERACTION_MESSAGE_COMPONENT = 3;
/** CHANNEL_MESSAGE_WITH_SOURCE, with the EPHEMERAL flag: only the presser sees it */
const EPHEMERAL_REPLY = { type: 4, flags: 1 << 6 };
/** button styles: primary, secondary, danger */
const STYLE = { primary: 1, secondary: 2, danger: 4 } as const;
const ANSWER_STYLE = { once: 'primary', session: 'secondary', always: 'secondary', deny: 'danger' } as const;

/** A message with one row of buttons; its id comes back as `<channel>/<message>` for closeApproval. */
export async function sendButtons(
  rest: REST,
  message: ButtonMessage & { replyToMessageId?: string | undefined },
): Promise<SendResult> {
  const channelId = message.threadId ?? message.chatId;
  const buttons = message.buttons.map((b) => ({
    type: 2,
    style: STYLE[b.style ?? 'secondary'],
    label: b.label,
    custom_id: b.data,
  }));
  const body = {
    ...messageBody(message.text, {
      suppressEmbeds: true,
      ...(message.replyToMessageId === undefined ? {} : { replyTo: message.replyToMessageId }),
    }),
    components: [{ type: 1, components: buttons }],
  };
  try {
    const response = (await rest.post(Routes.channelMessages(channelId), { body })) as { id?: unknown };
    return typeof response.id === 'string'
      ? { ok: true, messageIds: [`${channelId}/${response.id}`] }
      : { ok: false, error: 'transient', message: 'discord: no message id in the answer' };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** The prompt with one button per answer. */
export function askApproval(rest: REST, prompt: ApprovalPromptMessage): Promise<SendResult> {
  const buttons = approvalButtons(prompt.approvalId).map((b) => ({
    label: b.label,
    data: b.data,
    style: ANSWER_STYLE[b.answer],
  }));
  return sendButtons(rest, { ...prompt, buttons });
}

export async function closeApproval(rest: REST, messageId: string, text: string): Promise<void> {
  const [channelId, id] = messageId.split('/');
  if (!channelId || !id) return;
  await rest.patch(Routes.channelMessage(channelId, id), { body: { content: text, components: [] } });
}

/** A button press, as far as it was read from an INTERACTION_CREATE of type 3. */
export interface ComponentPress {
  id: string;
  token: string;
  customId: string;
  channelId: string;
  userId: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const rec = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Reads a component interaction; null when a field is missing (it is then skipped, logged by the caller). */
export function parseComponentPress(data: Record<string, unknown>): ComponentPress | null {
  const id = str(data.id);
  const token = str(data.token);
  const customId = str(rec(data.data).custom_id);
  const channelId = str(data.channel_id) ?? str(rec(data.channel).id);
  const userId = str(rec(rec(data.member).user).id) ?? str(rec(data.user).id);
  if (!id || !token || !customId || !channelId || !userId) return null;
  return { id, token, customId, channelId, userId };
}

/** Hands a press to the sink and answers the presser (ephemeral) with the gateway's text. */
export async function handleComponentPress(
  press: ComponentPress,
  options: { rest: REST; sink: InboundSink; logger: Logger },
): Promise<void> {
  // a thread is its own chat: the channel is the chat id everywhere
  const text = await pressApproval(options.sink, PLATFORM, press.customId, press.userId, press.channelId);
  try {
    await options.rest.post(Routes.interactionCallback(press.id, press.token), {
      body: { type: EPHEMERAL_REPLY.type, data: { content: text, flags: EPHEMERAL_REPLY.flags } },
      auth: false,
    });
  } catch (error) {
    options.logger.debug({ error: describeError(error) }, 'discord: button press not answered');
  }
}
