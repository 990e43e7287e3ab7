/**
 * What a person is told when a turn fails: a stable code and one plain sentence saying what
 * happened (which timeout, refused, DNS, TLS, the HTTP status and the provider's own message),
 * never the model's URL, credentials or a stack (those go, redacted, to the log). Used by the
 * gateway's apology, the API platform's error answers and the CLI's one-line errors.
 */
import { ERROR_CODES, type ErrorCode, HermesError } from '@hermes/protocol';

export interface UserFacingError {
  code: ErrorCode;
  /** one plain sentence ending with the code in parentheses */
  message: string;
  /** the HTTP status the model endpoint answered, when there was one */
  status: number | null;
}

/** JavaScript's own failures: a bug or an exhausted resource here, never the model's fault. */
const INTERNAL_ERRORS = [RangeError, ReferenceError, EvalError, URIError];

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let at: unknown = err;
  while (at !== undefined && at !== null && chain.length < 8 && !chain.includes(at)) {
    chain.push(at);
    at = at instanceof Error ? at.cause : undefined;
  }
  return chain;
}

/** A RangeError (call stack exceeded, invalid length...) and the like anywhere in the cause chain. */
function isInternal(err: unknown): boolean {
  return causes(err).some((e) => INTERNAL_ERRORS.some((kind) => e instanceof kind));
}

/** The HTTP status of the first error in the chain that carries one (the model SDK's APIError). */
function httpStatus(err: unknown): number | null {
  for (const e of causes(err)) {
    const status = (e as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 100 && status < 600) return status;
  }
  return null;
}

const SENTENCES: Partial<Record<ErrorCode, string>> = {
  [ERROR_CODES.MODEL_UNREACHABLE]: 'The model server could not be reached.',
  [ERROR_CODES.MODEL_TIMEOUT]: 'The model server did not answer in time.',
  [ERROR_CODES.MODEL_AUTH]: 'The model server refused our credentials.',
  [ERROR_CODES.MODEL_RATE_LIMITED]: 'The model server is rate limiting requests, try again in a moment.',
  [ERROR_CODES.MODEL_HTTP]: 'The model server answered with an error.',
  [ERROR_CODES.MODEL_RESPONSE]: 'The model server sent an answer that could not be used.',
  [ERROR_CODES.MAX_ITERATIONS]: 'The request took more steps than allowed and was stopped.',
  [ERROR_CODES.CONTEXT_TOO_LARGE]:
    "The conversation does not fit the model's context window, even compressed; send /new to start a fresh one.",
  [ERROR_CODES.INTERRUPTED]: 'The request was interrupted.',
  [ERROR_CODES.STATE_DB]: 'The conversation store failed.',
  [ERROR_CODES.CONFIG_KEY]: 'Hermes is not configured correctly.',
  [ERROR_CODES.CONFIG_TYPE]: 'Hermes is not configured correctly.',
  [ERROR_CODES.CONFIG_SYNTAX]: 'Hermes is not configured correctly.',
  [ERROR_CODES.INTERNAL]: 'Something went wrong inside Hermes.',
};

function classify(err: unknown): { code: ErrorCode; status: number | null } {
  if (!(err instanceof HermesError)) return { code: ERROR_CODES.INTERNAL, status: null };
  const transport =
    err.code === ERROR_CODES.MODEL_UNREACHABLE ||
    err.code === ERROR_CODES.MODEL_TIMEOUT ||
    err.code === ERROR_CODES.MODEL_HTTP;
  if (!transport && isInternal(err)) return { code: ERROR_CODES.INTERNAL, status: null };
  const status = httpStatus(err);
  if (err.code === ERROR_CODES.MODEL_HTTP || err.code === ERROR_CODES.MODEL_AUTH) {
    if (status === 401 || status === 403 || err.code === ERROR_CODES.MODEL_AUTH) {
      return { code: ERROR_CODES.MODEL_AUTH, status };
    }
    if (status === 429) return { code: ERROR_CODES.MODEL_RATE_LIMITED, status };
  }
  return { code: SENTENCES[err.code] === undefined ? ERROR_CODES.INTERNAL : err.code, status };
}

/** Characters of a detail shown to people (the provider's message may be long). */
export const DETAIL_CHARS = 200;

/** The first HermesError `detail` down the cause chain (the outermost says the most: attempts, time). */
function detailOf(err: unknown): string | null {
  for (const e of causes(err)) {
    if (e instanceof HermesError && e.detail !== undefined && e.detail.trim() !== '') {
      const one = e.detail.replace(/\s+/g, ' ').trim();
      return one.length > DETAIL_CHARS ? `${one.slice(0, DETAIL_CHARS - 1)}…` : one;
    }
  }
  return null;
}

/** The code and plain sentence for a failed turn or command (`err` may be anything thrown). */
export function userFacingError(err: unknown): UserFacingError {
  const { code, status } = classify(err);
  const sentence = SENTENCES[code] ?? 'Something went wrong inside Hermes.';
  const withStatus =
    (code === ERROR_CODES.MODEL_HTTP || code === ERROR_CODES.MODEL_AUTH || code === ERROR_CODES.MODEL_RATE_LIMITED) &&
    status !== null
      ? sentence.replace(/\.$/, `, HTTP ${status}.`)
      : sentence;
  const detail = code === ERROR_CODES.INTERNAL ? null : detailOf(err);
  const said = withStatus.replace(/\.$/, '') + (detail !== null ? `: ${detail.replace(/\.$/, '')}` : '');
  return { code, message: `${said} (${code}).`, status };
}
