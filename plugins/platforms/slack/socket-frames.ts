/**
 * Socket Mode frames the SDKs cannot dispatch: an `events_api` envelope without an event object makes
 * @slack/socket-mode throw (an unhandled rejection, and the envelope is never acked), and a payload
 * that is not an `event_callback` is dropped by Bolt unacked. Slack would deliver either again, to
 * fail the same way, so such an envelope is acked and skipped with a warning; every other frame
 * goes to the SDK as before. A frame is parsed once, by the SDK: what its parse cannot carry is
 * found when its handler throws (the frame is read again then), the rest from the payload it hands
 * to its `slack_event` listeners.
 */
import type { Logger } from '@hermes/protocol';
import type { SocketModeReceiver } from '@slack/bolt';
import { describeError } from './error-text.js';

type SocketClient = SocketModeReceiver['client'];
type FrameHandler = (data: string | ArrayBuffer, isBinary: boolean) => Promise<void>;
/** the client's own ack (`send(envelopeId)`), private in its typings */
type Acker = (envelopeId: string) => Promise<void>;
type Json = Record<string, unknown>;
interface SlackEventArgs {
  ack: () => Promise<void>;
  envelope_id?: unknown;
  type?: unknown;
  body: unknown;
  [key: string]: unknown;
}
type SlackEventListener = (args: SlackEventArgs) => unknown;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function frameText(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || data instanceof Uint8Array) return new TextDecoder().decode(data);
  return null;
}

/** Why the payload of an events_api envelope cannot be dispatched, or null when it can. */
export function payloadProblem(payload: unknown): string | null {
  if (!isRecord(payload)) return 'payload is not an object';
  if (payload.type !== 'event_callback') return `payload type ${JSON.stringify(payload.type)}`;
  if (!isRecord(payload.event) || typeof payload.event.type !== 'string') return 'payload.event is not an event';
  return null;
}

/** Why an events_api envelope cannot be dispatched (with its id), or null for every other frame. */
export function envelopeProblem(text: string): { envelopeId: string; reason: string } | null {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return null; // the SDK ignores frames it cannot parse
  }
  if (!isRecord(frame) || frame.type !== 'events_api' || typeof frame.envelope_id !== 'string') return null;
  const reason = payloadProblem(frame.payload);
  return reason === null ? null : { envelopeId: frame.envelope_id, reason };
}

/**
 * Puts the checks around the client's own frame handler and in front of its `slack_event`
 * listeners (call after the receiver is built, before start).
 */
export function guardSocketFrames(client: SocketClient, logger: Logger): void {
  const internals = client as unknown as { onWebSocketMessage?: FrameHandler; send?: Acker };
  const own = internals.onWebSocketMessage;
  const send = internals.send;
  if (typeof own !== 'function' || typeof send !== 'function') return;
  const handle: FrameHandler = own.bind(client);
  const ack: Acker = send.bind(client);
  const skipped = (envelopeId: unknown, reason: string): void => {
    logger.warn({ envelopeId }, `slack: malformed envelope acked and skipped: ${reason}`);
  };
  client.removeAllListeners('ws_message');
  client.on('ws_message', async (data: string | ArrayBuffer, isBinary: boolean) => {
    try {
      await handle(data, isBinary);
    } catch (error) {
      // the SDK threw reading the frame: an envelope it could not dispatch is acked here, once
      const text = isBinary ? null : frameText(data);
      const problem = text === null ? null : envelopeProblem(text);
      if (problem === null) {
        logger.warn(
          { error: describeError(error).slice(0, 200) },
          'slack: socket frame could not be processed; skipped',
        );
        return;
      }
      skipped(problem.envelopeId, problem.reason);
      await ack(problem.envelopeId).catch((failure: unknown) => {
        logger.debug({ error: describeError(failure) }, 'slack: ack of a malformed envelope failed');
      });
    }
  });
  const listeners = client.listeners('slack_event') as SlackEventListener[];
  client.removeAllListeners('slack_event');
  client.on('slack_event', async (args: SlackEventArgs) => {
    const reason = args.type === 'events_api' ? payloadProblem(args.body) : null;
    if (reason === null) {
      await Promise.all(listeners.map(async (listener) => listener(args)));
      return;
    }
    skipped(args.envelope_id, reason);
    await args.ack();
  });
}
