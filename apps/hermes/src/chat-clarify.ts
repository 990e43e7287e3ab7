/**
 * The clarify tool's questions in `hermes chat`: the question printed with its choices numbered,
 * and the next line typed is the answer (a number or a choice's text picks that choice; other words
 * are a free-text answer). No answer within agent.clarify_timeout_s, Ctrl+C or the end of input
 * settle it without one; a line typed later goes to the prompt that asks next.
 */
import { type ClarifyAnswer, type ClarifyPrompt, readClarifyReply } from '@hermes/protocol';

/** The question as printed: the question, then each choice with its number. */
export function clarifyQuestionLines(question: string, choices: readonly string[]): string {
  return [`\n❓ ${question}`, ...choices.map((c, i) => `  ${i + 1}. ${c}`)].join('\n');
}

/** A clarify prompt that reads the answer with `read` (the chat's line reader). */
export function terminalClarify(
  read: (prompt: string) => Promise<string | null>,
  write: (text: string) => void,
  timeoutMs: number,
): ClarifyPrompt {
  return async (question, signal) => {
    if (signal.aborted) return { kind: 'cancelled' };
    write(`${clarifyQuestionLines(question.question, question.choices)}\n`);
    const ask = question.choices.length > 0 ? 'answer (a number, or your own words)> ' : 'answer> ';
    let timer: NodeJS.Timeout | undefined;
    let onAbort = () => {};
    const ended = new Promise<ClarifyAnswer>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout', timeoutMs }), timeoutMs);
      onAbort = () => resolve({ kind: 'cancelled' });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const typed = (async (): Promise<ClarifyAnswer> => {
      for (;;) {
        const line = await read(ask);
        if (line === null) return { kind: 'cancelled' }; // end of input
        if (line.trim() !== '') return readClarifyReply(question, line);
      }
    })();
    try {
      const answer = await Promise.race([typed, ended]);
      if (answer.kind === 'timeout') write('\n[no answer in time: going on without it]\n');
      return answer;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  };
}
