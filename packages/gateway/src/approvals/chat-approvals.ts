/**
 * Approvals asked in the chat a turn answers: the user who started the turn gets a prompt with
 * native buttons (where the platform has them) and can also answer `/approve [session|always]` or
 * `/deny`; no answer within the timeout denies. Only that user's answer counts. The approval hooks
 * fire through the agent's approval gate (surface `gateway`), one gate per session key, so "this
 * session" is remembered for the session; "always" is remembered for the user until the gateway stops.
 */
import { createApprovalGate } from '@hermes/agent';
import type {
  ApprovalAnswer,
  ApprovalChoice,
  ApprovalPress,
  ApprovalPressResult,
  ApprovalRequest,
  HookInvoker,
  Logger,
  MessageEvent,
  PlatformAdapter,
} from '@hermes/protocol';
import { approvalPromptText, outcomeText } from './approval-text.js';
import { type PendingAsk, PendingAsks, whoseAnswer } from './pending-asks.js';

export interface ChatApprovalPorts {
  hooks: HookInvoker;
  adapters: Pick<ReadonlyMap<string, PlatformAdapter>, 'get'>;
  /** sends plain text to the event's chat (the prompt where there are no buttons, a timeout notice) */
  sendText(event: MessageEvent, text: string): Promise<unknown>;
  /** approvals.timeout_s in ms (default DEFAULT_APPROVAL_TIMEOUT_MS) */
  timeoutMs?: number | undefined;
  logger: Logger;
}

type Approve = (request: ApprovalRequest) => Promise<ApprovalChoice>;

/** An approval waiting for its answer; it keeps the event it was asked for. */
type Pending = PendingAsk<ApprovalChoice, MessageEvent>;

interface SessionGate {
  gate: Approve;
  /** the turn asking, set by each request (null until the first) */
  turn: { event: MessageEvent | null; signal: AbortSignal | null };
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** session gates kept at most (the oldest is forgotten first) */
const MAX_GATES = 10_000;

export class ChatApprovals {
  readonly #ports: ChatApprovalPorts;
  readonly #pending = new PendingAsks<ApprovalChoice, MessageEvent>();
  readonly #gates = new Map<string, SessionGate>();
  /** `platform:user:patternKey` answered "always" */
  readonly #always = new Set<string>();

  constructor(ports: ChatApprovalPorts) {
    this.#ports = ports;
  }

  /**
   * The approval function for a turn in `sessionKey` answering `event` (cancelled with `signal`).
   * The session's gate (its "this session" answers, and the turn it asks in) is made by the first
   * approval the session asks for: a session that never asks keeps nothing here, not its last event.
   */
  forTurn(sessionKey: string, event: MessageEvent, signal: AbortSignal): Approve {
    const userKey = `${event.platform}:${event.source.userId}:`;
    return async (request) => {
      const keys = request.patternKeys;
      if (keys.length > 0 && keys.every((k) => this.#always.has(userKey + k))) return 'always';
      const entry = this.#gateOf(sessionKey);
      // a session's turns run one at a time: the gate asks in this one
      entry.turn.event = event;
      entry.turn.signal = signal;
      const choice = await entry.gate(request);
      if (choice === 'always') for (const k of keys) this.#always.add(userKey + k);
      return choice;
    };
  }

  #gateOf(sessionKey: string): SessionGate {
    const known = this.#gates.get(sessionKey);
    if (known !== undefined) return known;
    const turn: SessionGate['turn'] = { event: null, signal: null };
    const gate = createApprovalGate({
      hooks: this.#ports.hooks,
      surface: 'gateway',
      sessionKey,
      ask: (request) =>
        turn.event && turn.signal ? this.#ask(turn.event, turn.signal, request) : Promise.resolve('deny' as const),
    });
    const entry = { gate, turn };
    this.#gates.set(sessionKey, entry);
    if (this.#gates.size > MAX_GATES) this.#gates.delete(this.#gates.keys().next().value as string);
    return entry;
  }

  /** Forgets the session's "this session" answers (/new). */
  forgetSession(sessionKey: string): void {
    this.#gates.delete(sessionKey);
  }

  /** Sessions holding a gate: those that have asked for an approval (at most 10,000, oldest forgotten). */
  get gatedSessions(): number {
    return this.#gates.size;
  }

  /** Approvals waiting for an answer. */
  get waiting(): number {
    return this.#pending.size;
  }

  /** A button press: counts only when the presser is the user who was asked. */
  press(press: ApprovalPress): ApprovalPressResult {
    const pending = this.#pending.get(press.approvalId);
    const whose = whoseAnswer(pending, press);
    if (pending === undefined || whose === 'unknown') {
      return { kind: 'unknown', text: 'This approval is no longer waiting for an answer.' };
    }
    if (whose === 'not_yours') {
      this.#ports.logger.info(
        { platform: press.platform, chatId: press.chatId, userId: press.userId },
        'approval button pressed by another user: ignored',
      );
      return { kind: 'not_yours', text: 'Not yours: only the user who asked can answer this approval.' };
    }
    pending.settle(press.answer);
    return { kind: 'accepted', text: outcomeText(press.answer) };
  }

  /** `/approve [session|always]` or `/deny` typed in a chat: answers the oldest approval waiting there. */
  answerText(platform: string, chatId: string, userId: string, answer: ApprovalAnswer, admin = false): string {
    const inChat = this.#pending.inChat(platform, chatId);
    if (inChat.length === 0) return 'Nothing is waiting for approval here.';
    // an admin of the bot may answer another user's approval (the oldest waiting in this chat)
    const mine = inChat.find((p) => p.userId === userId) ?? (admin ? inChat[0] : undefined);
    if (mine === undefined)
      return 'Not yours: only the user who asked (or an admin of this bot) can answer this approval.';
    mine.settle(answer);
    return outcomeText(answer);
  }

  /** Shows the prompt and waits for the asked user's answer, the timeout (denies) or the turn's end. */
  #ask(event: MessageEvent, signal: AbortSignal, request: ApprovalRequest): Promise<ApprovalChoice> {
    const { adapters, logger } = this.#ports;
    const timeoutMs = this.#ports.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    const adapter = adapters.get(event.platform);
    const { chatId, threadId } = event.source;
    const buttons = adapter?.askApproval !== undefined;
    const text = approvalPromptText(request, event, timeoutMs, buttons);
    if (signal.aborted) return Promise.resolve('deny');
    const { ask: pending, answer } = this.#pending.open(
      { platform: event.platform, chatId, threadId, userId: event.source.userId },
      {
        data: event,
        timeoutMs,
        onTimeout: 'timeout',
        signal,
        onAbort: 'deny',
        onSettled: (ask, choice) => void this.#close(adapter, ask, choice),
      },
    );
    const id = pending.id;
    const replyTo = event.source.chatType !== 'dm' ? event.messageId : undefined;
    const shown =
      adapter?.askApproval === undefined
        ? this.#ports.sendText(event, text).then(() => undefined)
        : adapter
            .askApproval({
              approvalId: id,
              chatId,
              ...(threadId ? { threadId } : {}),
              ...(replyTo ? { replyToMessageId: replyTo } : {}),
              text,
            })
            .then(async (sent) => {
              if (sent.ok) return sent.messageIds[0];
              // the buttons could not be shown: the text commands still answer it
              logger.warn(
                { platform: event.platform, error: sent.message },
                'approval buttons not sent; asking in text',
              );
              await this.#ports.sendText(event, approvalPromptText(request, event, timeoutMs, false));
              return undefined;
            });
    shown
      .then((messageId) => {
        if (messageId === undefined) return;
        pending.messageId = messageId;
        // answered before the prompt's send returned: its buttons go now
        if (pending.settled !== undefined) void this.#close(adapter, pending, pending.settled);
      })
      .catch((err: unknown) => logger.warn({ err, platform: event.platform }, 'approval prompt not sent'));
    return answer;
  }

  async #close(adapter: PlatformAdapter | undefined, pending: Pending, choice: ApprovalChoice): Promise<void> {
    try {
      if (pending.messageId !== undefined && adapter?.closeApproval) {
        await adapter.closeApproval(pending.chatId, pending.messageId, outcomeText(choice));
      } else if (choice === 'timeout') {
        // a text prompt cannot be edited: the timeout is said (an answer was already replied to)
        await this.#ports.sendText(pending.data, outcomeText(choice));
      }
    } catch (err) {
      this.#ports.logger.debug({ err, platform: pending.platform }, 'approval prompt not updated');
    }
  }
}
