/** The webhook route: checks Telegram's secret header, then delivers the update before answering 200. */
import type { Logger, RouteRequest, RouteResponse } from '@hermes/protocol';
import type { Update } from 'grammy/types';
import { describeError } from './error-text.js';
import { secretMatcher } from './secret-matches.js';

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

export interface WebhookOptions {
  /** when set, a request without this exact secret gets 401 and is not processed */
  secret?: string | WebhookSecretCheck;
  /** null while the adapter cannot take updates (not started, bot unknown yet, stopped): answers 503 */
  deliver: () => ((update: Update) => Promise<void>) | null;
  logger: Logger;
}

function header(request: Pick<RouteRequest, 'headers'>, name: string): string | undefined {
  // node's server gives the names lowercased: a scan only for headers from elsewhere
  const direct = request.headers[name];
  if (direct !== undefined) return Array.isArray(direct) ? direct[0] : direct;
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function isUpdate(value: unknown): value is Update {
  return typeof value === 'object' && value !== null && 'update_id' in value && typeof value.update_id === 'number';
}

function parseBody(request: RouteRequest): unknown {
  if (request.body !== undefined && request.body !== null && typeof request.body === 'object') return request.body;
  try {
    return JSON.parse(request.rawBody);
  } catch {
    return undefined; // answered 400
  }
}

const REFUSED: RouteResponse = { status: 401, body: { ok: false, error: 'unauthorized' } };

/**
 * The secret check of one webhook, shared by its header check (`verify`, before the body is read)
 * and its handler: a request whose headers the header check passed is not hashed again by the
 * handler (the gateway hands both the same headers object); a handler called without the header
 * check (a server that has none) still checks the secret itself.
 */
export interface WebhookSecretCheck {
  /** true when the request carries the secret (remembered for its headers object) */
  verify(request: Pick<RouteRequest, 'headers'>): boolean;
  /** true when `verify` passed these headers, or they carry the secret */
  passes(request: Pick<RouteRequest, 'headers'>): boolean;
}

export function webhookSecretCheck(secret: string): WebhookSecretCheck {
  const matches = secretMatcher(secret);
  const verified = new WeakSet<object>();
  return {
    verify(request) {
      if (!matches(header(request, SECRET_HEADER))) return false;
      verified.add(request.headers);
      return true;
    },
    passes: (request) => verified.has(request.headers) || matches(header(request, SECRET_HEADER)),
  };
}

/** The header check the gateway runs before reading the body: a wrong or missing secret gets 401. */
export function webhookVerifier(
  secret: string | WebhookSecretCheck,
  logger: Logger,
): (request: Pick<RouteRequest, 'headers'>) => RouteResponse | null {
  const check = typeof secret === 'string' ? webhookSecretCheck(secret) : secret;
  return (request) => {
    if (check.verify(request)) return null;
    logger.warn('telegram: webhook request with a wrong or missing secret token refused');
    return REFUSED;
  };
}

/** Builds the route handler. Telegram retries non-2xx answers, so a failed delivery answers 500. */
export function createWebhookHandler(options: WebhookOptions): (request: RouteRequest) => Promise<RouteResponse> {
  const { secret } = options;
  const check = secret === undefined ? null : typeof secret === 'string' ? webhookSecretCheck(secret) : secret;
  return async (request) => {
    if (check !== null && !check.passes(request)) {
      options.logger.warn('telegram: webhook request with a wrong or missing secret token refused');
      return REFUSED;
    }
    const deliver = options.deliver();
    if (deliver === null) return { status: 503, body: { ok: false, error: 'not ready' } };
    const update = parseBody(request);
    if (!isUpdate(update)) return { status: 400, body: { ok: false, error: 'not a Telegram update' } };
    try {
      await deliver(update);
      return { status: 200, body: { ok: true } };
    } catch (error) {
      options.logger.error(
        { error: describeError(error), updateId: update.update_id },
        'telegram: webhook update not accepted; Telegram will retry',
      );
      return { status: 500, body: { ok: false, error: 'not accepted' } };
    }
  };
}
