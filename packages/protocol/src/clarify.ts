/**
 * The `clarify` tool's question to the user and the answer it waits for: what every surface that
 * can ask (a gateway chat with buttons or typed replies, `hermes chat`) implements, and the one
 * rule that reads a typed reply as a choice.
 */

/** choices a question may offer (one row of buttons on every platform: Discord's row holds five) */
export const CLARIFY_MAX_CHOICES = 5;
/** characters of one choice (a button's label: Slack allows 75) */
export const CLARIFY_MAX_CHOICE_CHARS = 60;
/** characters of the question */
export const CLARIFY_MAX_QUESTION_CHARS = 2_000;

/** What the model asks: a question, and the answers offered (none: a free-text question). */
export interface ClarifyQuestion {
  question: string;
  choices: readonly string[];
}

/** How the user answered. */
export type ClarifyAnswer =
  /** `choice`: the index of the choice picked (null for a free-text answer); `via`: a button or a typed reply */
  | { kind: 'answered'; text: string; choice: number | null; via: 'button' | 'text' }
  /** nobody answered within the timeout */
  | { kind: 'timeout'; timeoutMs: number }
  /** the turn ended before an answer (/stop, a new turn, the gateway stopping, the tool's own timeout) */
  | { kind: 'cancelled' };

/**
 * Asks the user who started the turn and waits for their answer; resolves `cancelled` once
 * `signal` aborts. Given to tools as `ToolContext.clarify` only where a user can answer.
 */
export type ClarifyPrompt = (question: ClarifyQuestion, signal: AbortSignal) => Promise<ClarifyAnswer>;

/**
 * A typed reply read against the choices: its number (`2`) or a choice's own text (case and
 * surrounding space ignored) picks that choice; anything else is a free-text answer.
 */
export function readClarifyReply(
  question: ClarifyQuestion,
  reply: string,
): Extract<ClarifyAnswer, { kind: 'answered' }> {
  const text = reply.trim();
  const n = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (n >= 1 && n <= question.choices.length) {
    return { kind: 'answered', text: question.choices[n - 1] as string, choice: n - 1, via: 'text' };
  }
  const lower = text.toLowerCase();
  const index = question.choices.findIndex((c) => c.trim().toLowerCase() === lower);
  return index >= 0
    ? { kind: 'answered', text: question.choices[index] as string, choice: index, via: 'text' }
    : { kind: 'answered', text, choice: null, via: 'text' };
}
