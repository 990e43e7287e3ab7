/**
 * HTTP Events API intake on the gateway's own server: a Bolt Receiver whose requests arrive through
 * the route handler. Signature and timestamp checked first (401, nothing processed), url_verification
 * answered, every event answered 200 once accepted, 500 when the sink failed (Slack retries), and
 * 200 at the ack deadline when accepting takes longer (Slack wants an answer within 3 s).
 */
import type { Logger, RouteRequest, RouteResponse } from '@hermes/protocol';
import type { App, Receiver } from '@slack/bolt';
import { describeError } from './error-text.js';
import { checkSignature } from './request-signature.js';

export interface HttpIntakeOptions {
  signingSecret: string;
  logger: Logger;
  ackDeadlineMs: number;
  now: () => number;
  /** the running app, or undefined before start() and after stop() (answered 503, Slack retries) */
  app: () => App | undefined;
  /** remembers the processing so stop() can wait for it */
  track: <T>(task: Promise<T>) => Promise<T>;
}

export interface HttpIntake {
  /** the App's receiver: the gateway's server does the listening, so start and stop do nothing */
  receiver: Receiver;
  handler: (request: RouteRequest) => Promise<RouteResponse>;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function header(request: RouteRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(request: RouteRequest): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(request.rawBody);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

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

/** Creates the receiver and its route handler. */
export function createHttpIntake(options: HttpIntakeOptions): HttpIntake {
  const { logger } = options;
  const receiver: Receiver = {
    init: () => {},
    start: async () => undefined,
    stop: async () => undefined,
  };

  const handler = async (request: RouteRequest): Promise<RouteResponse> => {
    const check = checkSignature(request, options.signingSecret, options.now());
    if (!check.ok) {
      logger.warn({ reason: check.reason }, `slack: events request refused (${check.reason})`);
      return { status: 401, body: { ok: false, error: 'invalid_request_signature' } };
    }
    const interactive = interactivePayload(request);
    if (interactive !== undefined) return handleInteractive(interactive);
    const body = parseBody(request);
    if (body === undefined && isRecord(request.body) && request.body.ssl_check === '1') return { status: 200 };
    if (body === undefined) {
      logger.warn('slack: events request body is not a JSON object');
      return { status: 400, body: { ok: false, error: 'invalid_body' } };
    }
    if (body.type === 'url_verification') {
      return typeof body.challenge === 'string'
        ? { status: 200, body: { challenge: body.challenge } }
        : { status: 400, body: { ok: false, error: 'missing_challenge' } };
    }
    const app = options.app();
    if (app === undefined) return { status: 503, body: { ok: false, error: 'not_ready' } };
    if (body.type !== 'event_callback') {
      logger.debug({ type: body.type }, 'slack: events request of another type ignored');
      return { status: 200 };
    }
    if (!isRecord(body.event)) {
      // Bolt throws on it, and a 500 would make Slack send it again and again
      logger.warn({ eventId: body.event_id }, 'slack: event_callback without an event object skipped');
      return { status: 200 };
    }
    const retry = header(request, 'x-slack-retry-num');
    const retryReason = header(request, 'x-slack-retry-reason');
    const work = options.track(
      app.processEvent({
        body,
        // Bolt acks events before its listeners run; the HTTP answer waits for the sink instead
        ack: async () => {},
        ...(retry !== undefined && /^\d+$/.test(retry) ? { retryNum: Number(retry) } : {}),
        ...(retryReason === undefined ? {} : { retryReason }),
      }),
    );
    const outcome = await settleWithin(work, options.ackDeadlineMs);
    if (outcome.kind !== 'failed' && options.app() === undefined) {
      // stop() came while the event was being handled: the listener skips what it had not handed
      // to the sink yet, so a 200 could lose it. Slack sends it again; a stored one is recognised.
      logger.warn(
        { eventId: body.event_id },
        'slack: adapter stopped while handling an event; answered 503 so Slack retries',
      );
      return { status: 503, body: { ok: false, error: 'stopping' } };
    }
    if (outcome.kind === 'failed') {
      logger.error(
        { error: describeError(outcome.error), eventId: body.event_id },
        'slack: event not accepted; answered 500 so Slack retries',
      );
      return { status: 500, body: { ok: false, error: 'not_accepted' } };
    }
    if (outcome.kind === 'late') {
      logger.warn({ eventId: body.event_id }, 'slack: event still being accepted at the ack deadline; answered 200');
      work.catch((error: unknown) =>
        logger.error({ error: describeError(error), eventId: body.event_id }, 'slack: event lost after a late answer'),
      );
    }
    return { status: 200 };
  };

  /** A button press (block_actions), signed like events: handled, then answered 200 (nothing is stored). */
  async function handleInteractive(payload: Json | null): Promise<RouteResponse> {
    if (payload === null || payload.type !== 'block_actions') {
      logger.warn('slack: interactive payload that is not block_actions (or not JSON) ignored');
      return { status: payload === null ? 400 : 200 };
    }
    const app = options.app();
    if (app === undefined) return { status: 503, body: { ok: false, error: 'not_ready' } };
    try {
      await options.track(app.processEvent({ body: payload, ack: async () => {} }));
    } catch (error) {
      logger.warn({ error: describeError(error) }, 'slack: button press not handled');
    }
    return { status: 200 };
  }

  return { receiver, handler };
}

/** Interactivity requests are a form with one field, `payload` (JSON); undefined for anything else, null when unreadable. */
function interactivePayload(request: RouteRequest): Json | null | undefined {
  if (!request.rawBody.startsWith('payload=')) return undefined;
  try {
    const parsed: unknown = JSON.parse(new URLSearchParams(request.rawBody).get('payload') ?? '');
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
