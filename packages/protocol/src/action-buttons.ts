/**
 * Action buttons: a message the gateway posts with buttons that act on something it owns (a cron
 * job's *Cancel*), as opposed to an approval prompt's answers. A press comes back as an
 * ActionPress; the gateway checks who pressed and answers with the text shown to the presser.
 */

/** One button: its label and what a press carries back (Telegram callback_data, Discord custom_id, Slack action_id). */
export interface ActionButton {
  label: string;
  data: string;
  style?: 'primary' | 'secondary' | 'danger';
}

/** A message with a row of action buttons. */
export interface ButtonMessage {
  chatId: string;
  threadId?: string;
  /** plain text */
  text: string;
  buttons: readonly ActionButton[];
}

/** A press of an action button, as the platform reported it. */
export interface ActionPress {
  platform: string;
  /** the action's name (`cron-cancel`) and its argument (the job id) */
  action: string;
  arg: string;
  /** who pressed */
  userId: string;
  chatId: string;
}

/** What the gateway answers the presser (a toast, an ephemeral reply). */
export interface ActionPressResult {
  text: string;
}

/** What an action button carries: `hact:<action>:<arg>` (short enough for Telegram's 64 bytes). */
export function actionButtonData(action: string, arg: string): string {
  return `hact:${action}:${arg}`;
}

/** Reads an action button's data back; null when it is not one or is malformed. */
export function parseActionButtonData(data: unknown): { action: string; arg: string } | null {
  if (typeof data !== 'string') return null;
  const m = /^hact:([a-z][a-z-]{0,15}):([A-Za-z0-9_-]{1,40})$/.exec(data);
  return m?.[1] && m[2] ? { action: m[1], arg: m[2] } : null;
}
