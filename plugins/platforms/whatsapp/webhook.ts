/**
 * The webhook on the gateway's own server. GET: Meta's verification handshake (`hub.mode=subscribe`,
 * `hub.verify_token` compared in constant time, `hub.challenge` echoed; anything else 403). POST:
 * a request without `X-Hub-Signature-256` is refused before its body is read (401); the signature
 * (HMAC-SHA256 of the raw body, the app secret as key) is checked before the body is looked at (a
 * wrong one 401); then the events are handed over and answered 200 once accepted, 500 when accepting
 * failed (Meta delivers again), 200 at the ack deadline when accepting takes longer, 503 before
 * start() and after stop().
 */
import type { Logger, RouteRequest, RouteResponse } from '@hermes/protocol';
import { readWebhook, type WebhookContents } from './payload.js';
import { checkSignature, SIGNATURE_HEADER, verifyTokenMatcher } from './signature.js';

export interface WebhookOptions {
  appSecret: string;
  verifyToken: string;
  logger: Logger;
  ackDeadlineMs: number;
  /** null while the adapter takes no events (not started, stopping): answered 503, Meta retries */
  deliver: () => ((contents: WebhookContents) => Promise<void>) | null;
}

function header(headers: RouteRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const REFUSED: RouteResponse = { status: 401, body: { error: 'invalid signature' } };

type Outcome = { kind: 'done' } | { kind: 'failed'; error: unknown } | { kind: 'late' };

/** Resolves done or failed when `work` settles, or late after `ms`, whichever is first. */
function settleWithin(work: Promise<void>, ms: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'late' }), ms);
  });
  const settled = work.then(
    (): Outcome => ({ kind: 'done' }),
    (error: unknown): Outcome => ({ kind: 'failed', error }),
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The header check run before the body is read: no signature at all is refused unread. */
export function signaturePresent(
  logger: Logger,
): (request: { headers: RouteRequest['headers'] }) => RouteResponse | null {
  return (request) => {
    if (header(request.headers, SIGNATURE_HEADER) !== undefined) return null;
    logger.warn('whatsapp: webhook POST without X-Hub-Signature-256 refused');
    return REFUSED;
  };
}

/** GET: the verification handshake. */
export function verificationHandler(options: Pick<WebhookOptions, 'verifyToken' | 'logger'>) {
  const matches = verifyTokenMatcher(options.verifyToken);
  return async (request: RouteRequest): Promise<RouteResponse> => {
    const query = request.query ?? {};
    const challenge = query['hub.challenge'];
    if (query['hub.mode'] !== 'subscribe' || challenge === undefined) {
      options.logger.warn(
        { mode: query['hub.mode'] ?? null },
        'whatsapp: webhook GET that is not a subscribe verification refused',
      );
      return { status: 403, body: 'not a webhook verification' };
    }
    if (!matches(query['hub.verify_token'])) {
      options.logger.warn('whatsapp: webhook verification with a wrong verify token refused');
      return { status: 403, body: 'wrong verify token' };
    }
    options.logger.info('whatsapp: webhook verified');
    return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: challenge };
  };
}

/** POST: the signed events. */
export function eventsHandler(options: WebhookOptions) {
  const { logger } = options;
  return async (request: RouteRequest): Promise<RouteResponse> => {
    const check = checkSignature(request.rawBody, header(request.headers, SIGNATURE_HEADER), options.appSecret);
    if (!check.ok) {
      logger.warn({ reason: check.reason }, `whatsapp: webhook POST refused (${check.reason})`);
      return REFUSED;
    }
    const deliver = options.deliver();
    if (deliver === null) return { status: 503, body: { error: 'not ready' } };
    const contents = readWebhook(request.body);
    for (const problem of contents.problems) logger.warn({ problem }, `whatsapp: webhook payload: ${problem}`);
    for (const field of contents.otherFields)
      logger.debug({ field }, 'whatsapp: webhook change of another field ignored');
    const work = deliver(contents);
    const outcome = await settleWithin(work, options.ackDeadlineMs);
    if (outcome.kind === 'failed') {
      logger.error(
        { error: errorText(outcome.error) },
        'whatsapp: webhook events not accepted; answered 500 so Meta delivers them again',
      );
      return { status: 500, body: { error: 'not accepted' } };
    }
    if (outcome.kind === 'late') {
      logger.warn('whatsapp: webhook events still being accepted at the ack deadline; answered 200');
      work.catch((error: unknown) =>
        logger.error({ error: errorText(error) }, 'whatsapp: webhook events lost after a late answer'),
      );
    }
    return { status: 200, body: 'EVENT_RECEIVED' };
  };
}
