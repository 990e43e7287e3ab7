/**
 * Buttons in a Slack chat (approval prompts, action buttons such as a cron job's *Cancel*): the
 * prompt as a message with Block Kit buttons (an `actions` block), a
 * press as a `block_actions` payload (over Socket Mode, or over HTTP signed like events) answered
 * with chat.postEphemeral (only the presser sees it), and the prompt replaced by chat.update
 * (text changed, blocks removed) once it is answered or expired.
 */
import { approvalButtons, pressApproval } from '@hermes/plugin-sdk';
import type { ApprovalPromptMessage, ButtonMessage, InboundSink, Logger, SendResult } from '@hermes/protocol';
import type { webApi } from '@slack/bolt';
import { describeError } from './error-text.js';
import { escapeMrkdwn } from './format/escape-mrkdwn.js';
import { toMessageId, tsOfMessageId } from './message-ids.js';
import { PLATFORM } from './normalize.js';
import { toSendFailure } from './send-errors.js';

/** Every button's action_id starts so: `hapv:` an approval's answer, `hact:` an action button. */
export const APPROVAL_ACTION = /^h(apv|act):/;

const STYLE = { primary: 'primary', danger: 'danger' } as const;

/** A message with one row of buttons (approval answers or action buttons). */
export async function sendButtons(
  client: webApi.WebClient,
  message: ButtonMessage & { replyToMessageId?: string | undefined },
): Promise<SendResult> {
  const threadTs = message.threadId ?? tsOfMessageId(message.replyToMessageId);
  const text = escapeMrkdwn(message.text);
  const buttons = message.buttons.map((b) => ({
    type: 'button' as const,
    text: { type: 'plain_text' as const, text: b.label },
    action_id: b.data,
    value: b.data,
    ...(b.style === 'primary' || b.style === 'danger' ? { style: STYLE[b.style] } : {}),
  }));
  try {
    const result = await client.chat.postMessage({
      channel: message.chatId,
      text,
      blocks: [
        { type: 'section' as const, text: { type: 'mrkdwn' as const, text } },
        { type: 'actions' as const, elements: buttons },
      ],
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    });
    const ts = result.ts ?? result.message?.ts;
    return ts === undefined
      ? { ok: false, error: 'transient', message: 'slack: no ts in the answer' }
      : { ok: true, messageIds: [toMessageId(result.channel ?? message.chatId, ts)] };
  } catch (error) {
    return toSendFailure(error);
  }
}

export function askApproval(client: webApi.WebClient, prompt: ApprovalPromptMessage): Promise<SendResult> {
  const buttons = approvalButtons(prompt.approvalId).map((b) => ({
    label: b.label,
    data: b.data,
    ...(b.answer === 'once' ? { style: 'primary' as const } : b.answer === 'deny' ? { style: 'danger' as const } : {}),
  }));
  return sendButtons(client, { ...prompt, buttons });
}

export async function closeApproval(client: webApi.WebClient, messageId: string, text: string): Promise<void> {
  const cut = messageId.lastIndexOf(':');
  if (cut <= 0) return;
  await client.chat.update({ channel: messageId.slice(0, cut), ts: messageId.slice(cut + 1), text, blocks: [] });
}

/** The fields of a block_actions body a press needs; null when one is missing. */
function readPress(body: unknown): { actionId: string; userId: string; channelId: string; threadTs?: string } | null {
  const rec = (v: unknown): Record<string, unknown> =>
    typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  const b = rec(body);
  const action = Array.isArray(b.actions) ? rec(b.actions[0]) : {};
  const actionId = action.action_id;
  const userId = rec(b.user).id;
  const channelId = rec(b.channel).id ?? rec(b.container).channel_id;
  const threadTs = rec(b.message).thread_ts;
  if (typeof actionId !== 'string' || typeof userId !== 'string' || typeof channelId !== 'string') return null;
  return { actionId, userId, channelId, ...(typeof threadTs === 'string' ? { threadTs } : {}) };
}

/** Hands a press to the sink and tells the presser (ephemeral) what came of it. */
export async function handleBlockAction(
  body: unknown,
  options: { client: webApi.WebClient; sink: InboundSink; logger: Logger },
): Promise<void> {
  const press = readPress(body);
  if (press === null) {
    options.logger.warn('slack: malformed block_actions payload skipped');
    return;
  }
  const text = await pressApproval(options.sink, PLATFORM, press.actionId, press.userId, press.channelId);
  try {
    await options.client.chat.postEphemeral({
      channel: press.channelId,
      user: press.userId,
      text,
      ...(press.threadTs === undefined ? {} : { thread_ts: press.threadTs }),
    });
  } catch (error) {
    options.logger.debug({ error: describeError(error) }, 'slack: ephemeral answer to a press not sent');
  }
}
