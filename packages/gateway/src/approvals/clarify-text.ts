/** The words of a clarify question in a chat: the prompt, what the presser is told, and the closed prompt. */
import type { ClarifyAnswer, ClarifyQuestion } from '@hermes/protocol';

/** The question as sent: with buttons, or with its choices numbered (a platform without buttons). */
export function clarifyPromptText(question: ClarifyQuestion, buttons: boolean, timeoutMs: number): string {
  const lines = [`❓ ${question.question}`];
  if (question.choices.length > 0 && !buttons) {
    lines.push(...question.choices.map((c, i) => `${i + 1}. ${c}`));
  }
  const how =
    question.choices.length === 0
      ? 'Reply with your answer'
      : buttons
        ? 'Press a button, or reply with your own answer'
        : 'Reply with a number, or with your own answer';
  lines.push(`(${how} within ${formatWait(timeoutMs)}.)`);
  return lines.join('\n');
}

/** The prompt once it is settled (its buttons removed): the question and what came of it. */
export function clarifyClosedText(question: ClarifyQuestion, answer: ClarifyAnswer): string {
  return `❓ ${question.question}\n${clarifyOutcomeText(answer)}`;
}

export function clarifyOutcomeText(answer: ClarifyAnswer): string {
  switch (answer.kind) {
    case 'answered':
      return `→ ${answer.text}`;
    case 'timeout':
      return 'No answer in time: going on without it.';
    case 'cancelled':
      return 'Cancelled.';
  }
}

/** `3 min`, `90 s` */
function formatWait(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}
