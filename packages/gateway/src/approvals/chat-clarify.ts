/**
 * The clarify tool's questions in the chat a turn answers: the question goes to the chat with one
 * action button per choice (`hact:clarify:<id>-<n>`, where the platform has buttons; numbered
 * choices in text elsewhere), and the turn waits until the user who started it answers: a press of
 * a button, or a message they type in that chat (which is then the answer, not a new turn). No
 * answer within agent.clarify_timeout_s, or the turn's end (/stop), settles it without one. Only
 * that user's answer counts; the same pending-ask registry as the approvals (pending-asks.ts).
 */
import {
  type ActionPress,
  actionButtonData,
  type ClarifyAnswer,
  type ClarifyPrompt,
  type ClarifyQuestion,
  type Logger,
  type MessageEvent,
  type PlatformAdapter,
  readClarifyReply,
} from '@hermes/protocol';
import { clarifyClosedText, clarifyPromptText } from './clarify-text.js';
import { type PendingAsk, PendingAsks, whoseAnswer } from './pending-asks.js';

/** The action its buttons carry (delivery/action-buttons.ts routes their presses here). */
export const CLARIFY_ACTION = 'clarify';

export const DEFAULT_CLARIFY_TIMEOUT_MS = 180_000;

export interface ChatClarifyPorts {
  adapters: Pick<ReadonlyMap<string, PlatformAdapter>, 'get'>;
  /** sends plain text to the event's chat (the question where there are no buttons, a timeout notice) */
  sendText(event: MessageEvent, text: string): Promise<unknown>;
  /** agent.clarify_timeout_s in ms (default DEFAULT_CLARIFY_TIMEOUT_MS) */
  timeoutMs?: number | undefined;
  logger: Logger;
}

interface Asked {
  event: MessageEvent;
  question: ClarifyQuestion;
}

type Pending = PendingAsk<ClarifyAnswer, Asked>;

export class ChatClarify {
  readonly #ports: ChatClarifyPorts;
  readonly #pending = new PendingAsks<ClarifyAnswer, Asked>();

  constructor(ports: ChatClarifyPorts) {
    this.#ports = ports;
  }

  /** The clarify prompt of a turn answering `event`: its questions go to that chat and its user. */
  forTurn(event: MessageEvent): ClarifyPrompt {
    return (question, signal) => this.#ask(event, question, signal);
  }

  /** Questions waiting for an answer. */
  get waiting(): number {
    return this.#pending.size;
  }

  /** A press of a choice's button (action `clarify`, arg `<id>-<n>`); resolves with the text shown to the presser. */
  async press(press: ActionPress): Promise<string> {
    const m = /^([0-9a-f]{1,32})-(\d{1,2})$/.exec(press.arg);
    const pending = m?.[1] === undefined ? undefined : this.#pending.get(m[1]);
    const whose = whoseAnswer(pending, press);
    if (pending === undefined || whose === 'unknown') return 'This question is no longer waiting for an answer.';
    if (whose === 'not_yours') {
      this.#ports.logger.info(
        { platform: press.platform, chatId: press.chatId, userId: press.userId },
        'clarify button pressed by another user: ignored',
      );
      return 'Not yours: only the user who was asked can answer this question.';
    }
    const index = Number(m?.[2]);
    const choice = pending.data.question.choices[index];
    if (choice === undefined) return 'This question is no longer waiting for an answer.';
    pending.settle({ kind: 'answered', text: choice, choice: index, via: 'button' });
    return `Answered: ${choice}`;
  }

  /**
   * A message typed in a chat where its sender was asked a question (the same chat and thread):
   * it answers the oldest such question and is consumed (true); false when none waits for them.
   */
  answerTyped(event: MessageEvent): boolean {
    const text = event.text.trim();
    if (text === '' || this.#pending.size === 0) return false;
    const { platform, chatId, threadId, userId } = event.source;
    const mine = this.#pending
      .inChat(platform, chatId)
      .find((p) => p.userId === userId && (p.threadId ?? '') === (threadId ?? ''));
    if (mine === undefined) return false;
    return mine.settle(readClarifyReply(mine.data.question, text));
  }

  /** Shows the question and waits for the asked user's answer, the timeout or the turn's end. */
  #ask(event: MessageEvent, question: ClarifyQuestion, signal: AbortSignal): Promise<ClarifyAnswer> {
    const { adapters, logger } = this.#ports;
    const timeoutMs = this.#ports.timeoutMs ?? DEFAULT_CLARIFY_TIMEOUT_MS;
    const adapter = adapters.get(event.platform);
    const { chatId, threadId } = event.source;
    const { ask: pending, answer } = this.#pending.open(
      { platform: event.platform, chatId, threadId, userId: event.source.userId },
      {
        data: { event, question },
        timeoutMs,
        onTimeout: { kind: 'timeout', timeoutMs },
        signal,
        onAbort: { kind: 'cancelled' },
        onSettled: (ask, settled) => void this.#close(adapter, ask, settled),
      },
    );
    if (pending.settled !== undefined) return answer; // the turn had ended already
    const withButtons = question.choices.length > 0 && adapter?.sendButtons !== undefined;
    const asText = () => this.#ports.sendText(event, clarifyPromptText(question, false, timeoutMs));
    const shown: Promise<string | undefined> =
      adapter?.sendButtons === undefined || !withButtons
        ? asText().then(() => undefined)
        : adapter
            .sendButtons({
              chatId,
              ...(threadId ? { threadId } : {}),
              text: clarifyPromptText(question, true, timeoutMs),
              buttons: question.choices.map((label, n) => ({
                label,
                data: actionButtonData(CLARIFY_ACTION, `${pending.id}-${n}`),
              })),
            })
            .then(async (sent) => {
              if (sent.ok) return sent.messageIds[0];
              // the buttons could not be shown: a typed answer still works
              logger.warn(
                { platform: event.platform, error: sent.message },
                'clarify buttons not sent; asking in text',
              );
              await asText();
              return undefined;
            });
    shown
      .then((messageId) => {
        if (messageId === undefined) return;
        pending.messageId = messageId;
        // answered before the send returned: the buttons go now
        if (pending.settled !== undefined) void this.#close(adapter, pending, pending.settled);
      })
      .catch((err: unknown) => logger.warn({ err, platform: event.platform }, 'clarify question not sent'));
    return answer;
  }

  /** The question's buttons removed (its text says what came of it); a text question is told of a timeout. */
  async #close(adapter: PlatformAdapter | undefined, pending: Pending, answer: ClarifyAnswer): Promise<void> {
    try {
      if (pending.messageId !== undefined && adapter?.closeApproval) {
        await adapter.closeApproval(
          pending.chatId,
          pending.messageId,
          clarifyClosedText(pending.data.question, answer),
        );
      } else if (answer.kind === 'timeout') {
        await this.#ports.sendText(pending.data.event, clarifyClosedText(pending.data.question, answer));
      }
    } catch (err) {
      this.#ports.logger.debug({ err, platform: pending.platform }, 'clarify question not updated');
    }
  }
}
