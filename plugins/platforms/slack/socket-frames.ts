/**
 * Socket Mode frames the SDKs cannot dispatch: an `events_api` envelope without an event object makes
 * @slack/socket-mode throw (an unhandled rejection, and the envelope is never acked), and a payload
 * that is not an `event_callback` is dropped by Bolt unacked. Slack would deliver either again, to
 * fail the same way, so such an envelope is acked and skipped with a warning; every other frame
 * goes to the SDK as before.
 */
import type { Logger } from '@hermes/protocol';
import type { SocketModeReceiver } from '@slack/bolt';
import { describeError } from './error-text.js';

type SocketClient = SocketModeReceiver['client'];
type FrameHandler = (data: string | ArrayBuffer, isBinary: boolean) => Promise<void>;
/** the client's own ack (`send(envelopeId)`), private in its typings */
type Acker = (envelopeId: string) => Promise<void>;
type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function frameText(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || data instanceof Uint8Array) return new TextDecoder().decode(data);
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
  const payload = frame.payload;
  if (!isRecord(payload)) return { envelopeId: frame.envelope_id, reason: 'payload is not an object' };
  if (payload.type !== 'event_callback') {
    return { envelopeId: frame.envelope_id, reason: `payload type ${JSON.stringify(payload.type)}` };
  }
  if (!isRecord(payload.event) || typeof payload.event.type !== 'string') {
    return { envelopeId: frame.envelope_id, reason: 'payload.event is not an event' };
  }
  return null;
}

/** Puts the check in front of the client's own frame handler. */
export function guardSocketFrames(client: SocketClient, logger: Logger): void {
  const internals = client as unknown as { onWebSocketMessage?: FrameHandler; send?: Acker };
  const own = internals.onWebSocketMessage;
  const send = internals.send;
  if (typeof own !== 'function' || typeof send !== 'function') return;
  const handle: FrameHandler = own.bind(client);
  const ack: Acker = send.bind(client);
  client.removeAllListeners('ws_message');
  client.on('ws_message', async (data: string | ArrayBuffer, isBinary: boolean) => {
    const text = isBinary ? null : frameText(data);
    const problem = text === null ? null : envelopeProblem(text);
    if (problem !== null) {
      logger.warn({ envelopeId: problem.envelopeId }, `slack: malformed envelope acked and skipped: ${problem.reason}`);
      await ack(problem.envelopeId).catch((error: unknown) => {
        logger.debug({ error: describeError(error) }, 'slack: ack of a malformed envelope failed');
      });
      return;
    }
    try {
      await handle(data, isBinary);
    } catch (error) {
      logger.warn({ error: describeError(error).slice(0, 200) }, 'slack: socket frame could not be processed; skipped');
    }
  });
}
