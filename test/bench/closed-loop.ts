// A closed-loop load for pipeline benchmarks on any platform: N concurrent slots, each a chat that
// sends one message, awaits its reply and sends the next; a slot moves to a fresh chat every few
// messages. How a message goes in and how its reply is seen are the caller's (ChatTraffic).
import type { ObservedReply } from './pipeline-load.js';

export interface ChatTraffic<C> {
  /** sends `text` in `chat`; a promise (e.g. a webhook POST) is awaited along with the reply */
  send(chat: C, text: string): Promise<unknown> | void;
  /** resolves with the next reply in `chat` (called before `send`) */
  next(chat: C, timeoutMs: number): Promise<ObservedReply>;
  /** a chat never used before */
  newChat(): C;
  /** for error messages */
  describe(chat: C): string;
}

export interface ClosedLoopOptions<C> {
  /** the chat each concurrent slot starts with */
  chats: readonly C[];
  /** after this many messages a slot moves on to `traffic.newChat()` (default: never) */
  turnsPerChat?: number;
  /** messages in all, spread over the slots as they come */
  messages: number;
  /** stop issuing new messages after this long */
  capMs: number;
  /** a reply slower than this fails the run */
  replyTimeoutMs: number;
  /** true when `reply` is the expected answer to `sent` */
  expect: (sent: string, reply: string) => boolean;
}

export interface ClosedLoopResult {
  /** messages answered */
  count: number;
  elapsedMs: number;
  /** per message, from just before `send` to the fake's record of the reply, sorted ascending */
  latenciesMs: Float64Array;
  capped: boolean;
}

/** Runs `options.chats.length` slots concurrently until `options.messages` were answered. */
export async function runClosedLoop<C>(
  traffic: ChatTraffic<C>,
  options: ClosedLoopOptions<C>,
): Promise<ClosedLoopResult> {
  const latencies = new Float64Array(options.messages);
  let issued = 0;
  let done = 0;
  let capped = false;
  let failed = false;
  const started = performance.now();
  const deadline = started + options.capMs;
  const turnsPerChat = options.turnsPerChat ?? Number.POSITIVE_INFINITY;
  const slot = async (first: C): Promise<void> => {
    let chat = first;
    let turns = 0;
    while (issued < options.messages && !failed) {
      if (performance.now() > deadline) {
        capped = true;
        return;
      }
      if (turns === turnsPerChat) {
        chat = traffic.newChat();
        turns = 0;
      }
      turns += 1;
      const text = `bench message ${issued++}`;
      const reply = traffic.next(chat, options.replyTimeoutMs);
      const t0 = performance.now();
      let observed: ObservedReply;
      try {
        [, observed] = await Promise.all([traffic.send(chat, text), reply]);
      } catch (error) {
        failed = true;
        reply.catch(() => {});
        throw error;
      }
      if (!options.expect(text, observed.text)) {
        failed = true;
        throw new Error(
          `${traffic.describe(chat)}: unexpected reply ${JSON.stringify(observed.text)} to ${JSON.stringify(text)}`,
        );
      }
      latencies[done++] = observed.at - t0;
    }
  };
  await Promise.all(options.chats.map(slot));
  const elapsedMs = performance.now() - started;
  return { count: done, elapsedMs, latenciesMs: latencies.slice(0, done).sort(), capped };
}
