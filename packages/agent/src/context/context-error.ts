/** Recognising the model's "context length exceeded" answer: OpenAI's code and the usual wordings. */
import { isBadRequest } from '../user-content.js';

const WORDINGS =
  /context[_ ]length[_ ]exceeded|maximum context length|context window|too many tokens|prompt is too long|reduce the length of the messages|exceeds the context/i;

/** True for a 400 whose code is `context_length_exceeded` or whose message says the prompt is too long. */
export function isContextLengthError(error: unknown): boolean {
  if (!isBadRequest(error)) return false;
  const cause = (error as { cause?: unknown }).cause as { code?: unknown; message?: unknown } | undefined;
  if (cause?.code === 'context_length_exceeded') return true;
  const texts = [error instanceof Error ? error.message : '', typeof cause?.message === 'string' ? cause.message : ''];
  return texts.some((t) => WORDINGS.test(t));
}
