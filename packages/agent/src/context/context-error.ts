/** Recognising the model's "context length exceeded" answer: OpenAI's code and the usual wordings. */
import { isBadRequest } from '../user-content.js';

const WORDINGS =
  /context[_ ]length[_ ]exceeded|maximum context length|context window|too many tokens|prompt is too long|reduce the length of the messages|exceeds the context/i;

/** The error and its causes, outermost first (a few levels: the client wraps the SDK's error). */
function chain(error: unknown): { code?: unknown; message?: unknown }[] {
  const out: { code?: unknown; message?: unknown }[] = [];
  let at: unknown = error;
  for (let i = 0; i < 4 && typeof at === 'object' && at !== null; i++) {
    out.push(at as { code?: unknown; message?: unknown });
    at = (at as { cause?: unknown }).cause;
  }
  return out;
}

/** True for a 400 whose code is `context_length_exceeded` or whose message says the prompt is too long. */
export function isContextLengthError(error: unknown): boolean {
  if (!isBadRequest(error)) return false;
  return chain(error).some(
    (e) => e.code === 'context_length_exceeded' || (typeof e.message === 'string' && WORDINGS.test(e.message)),
  );
}
