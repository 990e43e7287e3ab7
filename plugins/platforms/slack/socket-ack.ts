/**
 * Socket Mode acks after the gateway accepted the event, as the HTTP intake answers only then.
 * Bolt acks an Events API envelope before its listeners run, so a crash between that ack and the
 * gateway storing the message would lose it (Slack never sends an acked envelope again). Here the
 * ack Bolt asks for is held until its listeners finished, and sent then, unless the gateway
 * refused the event (a SinkFailure: no ack, so Slack delivers it again). If accepting takes longer
 * than the ack deadline the ack goes at the deadline (Slack wants one within 3 s; a late event is
 * still accepted in this process, as over HTTP). Nothing is acked after stop(): those events were
 * not delivered, and Slack gives them to the next connection.
 */
import type { Logger } from '@hermes/protocol';
import type { SocketModeReceiver } from '@slack/bolt';
import { describeError } from './error-text.js';

type SocketClient = SocketModeReceiver['client'];
type Ack = (response?: Record<string, unknown>) => Promise<void>;
interface SlackEventArgs {
  ack: Ack;
  body: unknown;
  [key: string]: unknown;
}
type SlackEventListener = (args: SlackEventArgs) => unknown;

export interface HeldAcks {
  /** marks an envelope body whose event the gateway refused: its ack is never sent */
  refuse(body: unknown): void;
}

/** Wraps the receiver's `slack_event` listeners (call after the receiver is built, before start). */
export function holdAcksUntilAccepted(
  client: SocketClient,
  logger: Logger,
  options: { deadlineMs: number; stopped: () => boolean },
): HeldAcks {
  const refused = new WeakSet<object>();
  const listeners = client.listeners('slack_event') as SlackEventListener[];
  client.removeAllListeners('slack_event');
  client.on('slack_event', async (args: SlackEventArgs) => {
    let asked: { response: Record<string, unknown> | undefined } | undefined;
    let sent = false;
    const send = async (): Promise<void> => {
      if (sent || asked === undefined) return;
      if (typeof args.body === 'object' && args.body !== null && refused.has(args.body)) return;
      // after stop() nothing is delivered: the next gateway gets the envelope again (its inbox dedupes)
      if (options.stopped()) return;
      sent = true;
      await args.ack(asked.response).catch((error: unknown) => {
        // the socket closed before the ack: Slack delivers the envelope again on the next socket
        logger.debug({ error: describeError(error) }, 'slack: ack not sent');
      });
    };
    const held: SlackEventArgs = {
      ...args,
      ack: async (response) => {
        asked = { response };
      },
    };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), options.deadlineMs);
    });
    const work = Promise.all(listeners.map(async (listener) => listener(held))).then(() => 'done' as const);
    const first = await Promise.race([work, late]).finally(() => clearTimeout(timer));
    if (first === 'late') {
      logger.warn('slack: event still being accepted at the ack deadline; acked');
      await send();
      await work;
      return;
    }
    await send();
  });
  return {
    refuse: (body) => {
      if (typeof body === 'object' && body !== null) refused.add(body);
    },
  };
}
