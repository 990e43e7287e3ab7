/**
 * Approvals asked in a chat: the prompt a platform shows with native buttons, the press it
 * reports back, and what the gateway answers the presser.
 */

/** The answers a chat approval offers (a timeout is the gateway's, never a button). */
export type ApprovalAnswer = 'once' | 'session' | 'always' | 'deny';

export const APPROVAL_ANSWERS: readonly ApprovalAnswer[] = ['once', 'session', 'always', 'deny'];

/** The button labels, the same on every platform. */
export const APPROVAL_LABELS: Readonly<Record<ApprovalAnswer, string>> = {
  once: 'Allow once',
  session: 'Allow this session',
  always: 'Always allow',
  deny: 'Deny',
};

/** What a button carries (Telegram callback_data, Discord custom_id, Slack action value): `hapv:<id>:<answer>`. */
export function approvalButtonData(approvalId: string, answer: ApprovalAnswer): string {
  return `hapv:${approvalId}:${answer}`;
}

/** Reads a button's data back; null when it is not an approval button or is malformed. */
export function parseApprovalButtonData(data: unknown): { approvalId: string; answer: ApprovalAnswer } | null {
  if (typeof data !== 'string') return null;
  const m = /^hapv:([A-Za-z0-9]{1,32}):(once|session|always|deny)$/.exec(data);
  return m?.[1] && m[2] ? { approvalId: m[1], answer: m[2] as ApprovalAnswer } : null;
}

/** An approval prompt to show in a chat, with one button per answer. */
export interface ApprovalPromptMessage {
  approvalId: string;
  chatId: string;
  threadId?: string;
  /** the `messageId` of the MessageEvent answered, as the adapter made it */
  replyToMessageId?: string;
  /** plain text: the command and why it needs approval */
  text: string;
}

/** A press of an approval button, as the platform reported it. */
export interface ApprovalPress {
  platform: string;
  approvalId: string;
  answer: ApprovalAnswer;
  /** who pressed */
  userId: string;
  chatId: string;
}

/** What the gateway made of a press; `text` is shown to the presser (a toast, an ephemeral reply). */
export type ApprovalPressResult =
  | { kind: 'accepted'; text: string }
  | { kind: 'not_yours'; text: string }
  | { kind: 'unknown'; text: string };
