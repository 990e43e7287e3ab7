/**
 * Buttons on a platform that has them: an approval prompt's buttons (one per answer, with the data
 * a press carries back), and a press, of an approval or of an action button (a cron job's
 * *Cancel*), handed to the gateway, which answers with the text to show the presser ("Approved
 * once.", "Not yours", ...).
 */
import {
  APPROVAL_ANSWERS,
  APPROVAL_LABELS,
  type ApprovalAnswer,
  approvalButtonData,
  type InboundSink,
  parseActionButtonData,
  parseApprovalButtonData,
} from '@hermes/protocol';

export interface ApprovalButton {
  answer: ApprovalAnswer;
  /** the button's label (*Allow once*, ...) */
  label: string;
  /** what a press carries back (Telegram callback_data, Discord custom_id, Slack action_id) */
  data: string;
}

/** The prompt's buttons, in the order shown. */
export function approvalButtons(approvalId: string): ApprovalButton[] {
  return APPROVAL_ANSWERS.map((answer) => ({
    answer,
    label: APPROVAL_LABELS[answer],
    data: approvalButtonData(approvalId, answer),
  }));
}

/** What the presser is told when a press is not for a prompt the gateway still waits on. */
export const STALE_BUTTON_TEXT = 'This button is not in use any more.';

/** A press: the platform, the data its button carried, who pressed, in which chat. */
export type PressOf = [platform: string, data: unknown, userId: string, chatId: string | undefined];

/** Hands a press (approval or action button) to the gateway; resolves with the text to show the presser. */
export async function pressApproval(sink: InboundSink, ...[platform, data, userId, chatId]: PressOf): Promise<string> {
  const press = { platform, data, userId, chatId };
  const action = parseActionButtonData(press.data);
  if (action !== null && press.chatId !== undefined && sink.actionPress) {
    return (await sink.actionPress({ platform, ...action, userId, chatId: press.chatId })).text;
  }
  const parsed = parseApprovalButtonData(press.data);
  if (parsed === null || press.chatId === undefined || !sink.approvalPress) return STALE_BUTTON_TEXT;
  const result = await sink.approvalPress({
    platform: press.platform,
    approvalId: parsed.approvalId,
    answer: parsed.answer,
    userId: press.userId,
    chatId: press.chatId,
  });
  return result.text;
}
