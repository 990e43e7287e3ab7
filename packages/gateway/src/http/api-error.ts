/**
 * Errors in OpenAI's shape, `{error: {message, type, code, param}}`, for every answer of the gateway's
 * own routes: Fastify's own errors (malformed JSON, 413, 415, timeouts), unknown routes, the
 * disk-full 500 (SQLITE_FULL) and anything a handler throws; each one logged.
 */
import type { Logger } from '@hermes/protocol';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { describeValidation } from './validation-error.js';

export type ApiErrorType = 'invalid_request_error' | 'authentication_error' | 'server_error' | 'requests';

/** What a `pre_gateway_dispatch` skip answers (403, code `refused_by_hook`): no model call was made. */
export const DISPATCH_REFUSAL = 'the request was refused by the gateway (a pre_gateway_dispatch hook skipped it)';
/** What a request the stopping gateway will not run answers (503, code `unavailable`). */
export const STOPPING = 'the gateway is stopping; send the request again once it is back';

/** Sends `{error: {message, type, code, param}}` with `status` (`param`: the request field at fault). */
export function sendApiError(
  reply: FastifyReply,
  status: number,
  message: string,
  type: ApiErrorType = 'invalid_request_error',
  code: string | null = null,
  param: string | null = null,
): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: { message, type, code, param } });
}

/** An error event of a chat completions stream, in OpenAI's shape: `data: {error: {message, type, code, param}}`. */
export function streamErrorEvent(
  message: string,
  type: ApiErrorType,
  code: string,
  param: string | null = null,
): string {
  return `data: ${JSON.stringify({ error: { message, type, code, param } })}\n\n`;
}

/**
 * A user over one of their limits (access.*.limits): 429 with Retry-After in seconds, type
 * `requests` and code `rate_limit_exceeded` as OpenAI answers a rate limit; no model request was made.
 */
export function limitedAnswer(reply: FastifyReply, limited: { text: string; retryAfterS: number }): FastifyReply {
  reply.header('retry-after', String(limited.retryAfterS));
  return sendApiError(reply, 429, limited.text, 'requests', 'rate_limit_exceeded');
}

interface Described {
  status: number;
  message: string;
  type: ApiErrorType;
  code: string | null;
  param?: string | null;
}

function sqliteCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What to answer for an error thrown on a route (or by Fastify itself). */
export function describeHttpError(error: FastifyError | Error, contentType?: string): Described {
  const sqlite = sqliteCode(error);
  if (sqlite === 'SQLITE_FULL') {
    return {
      status: 500,
      message: "the gateway's disk is full: state.db cannot be written (free space, then retry)",
      type: 'server_error',
      code: 'disk_full',
    };
  }
  const fastify = error as Partial<FastifyError>;
  const status = typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 ? fastify.statusCode : 500;
  switch (fastify.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        message: 'request body is too large for this route',
        type: 'invalid_request_error',
        code: 'request_too_large',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        message:
          contentType === undefined
            ? 'no Content-Type: send application/json'
            : `unsupported Content-Type ${contentType.slice(0, 100)}: send application/json`,
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: error.message, type: 'invalid_request_error', code: 'invalid_body' };
    default:
      break;
  }
  const validation = (error as { validation?: unknown }).validation;
  if (Array.isArray(validation)) {
    const { message, param } = describeValidation(validation);
    return { status: 400, message, type: 'invalid_request_error', code: 'invalid_request', param };
  }
  if ((error as { invalidJson?: boolean }).invalidJson) {
    return { status: 400, message: error.message, type: 'invalid_request_error', code: 'invalid_json' };
  }
  if (status >= 500)
    return {
      status,
      message: 'internal error in the gateway (see its log)',
      type: 'server_error',
      code: 'internal_error',
    };
  return { status, message: error.message, type: 'invalid_request_error', code: null };
}

/** Installs the error and not-found handlers, and logs every refused or failed request. */
export function installApiErrors(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const described = describeHttpError(error, request.headers['content-type']);
    const fields = { method: request.method, path: request.url.split('?')[0], status: described.status };
    if (described.status >= 500)
      logger.error({ ...fields, error: error.message, code: sqliteCode(error) }, 'http: request failed');
    return sendApiError(
      reply,
      described.status,
      described.message,
      described.type,
      described.code,
      described.param ?? null,
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendApiError(
      reply,
      404,
      `no route ${request.method} ${request.url.split('?')[0]}`,
      'invalid_request_error',
      'not_found',
    ),
  );
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode < 400) return;
    logger[reply.statusCode >= 500 ? 'error' : 'warn'](
      { method: request.method, path: request.url.split('?')[0], status: reply.statusCode },
      `http: ${request.method} ${request.url.split('?')[0]} answered ${reply.statusCode}`,
    );
  });
}
