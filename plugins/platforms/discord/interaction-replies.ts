/**
 * Open slash-command interactions and which send answers which. The first send naming an
 * interaction (replyToMessageId = its id) edits the deferred original response; later ones are
 * followups. The gateway names the message only on an answer's first chunk and never in DMs, so a
 * send without replyToMessageId goes to the chat's current interaction: still unanswered (a DM
 * answer) → the original; answered (the next chunks) → a followup.
 */
import type { OutboundMessage } from '@hermes/protocol';

/** Discord's interaction tokens live 15 minutes; replies stop using them a minute before. */
export const INTERACTION_REPLY_WINDOW_MS = 14 * 60_000;

export interface OpenInteraction {
  id: string;
  token: string;
  applicationId: string;
  chatId: string;
  /** resolves true once the deferred response is acknowledged, false when that failed */
  acknowledged: Promise<boolean>;
  /** the original response carries an answer */
  answered: boolean;
  expiresAt: number;
  /** sends to this interaction run one after another */
  tail: Promise<unknown>;
}

export interface InteractionReplies {
  /**
   * Registers an interaction and starts its acknowledgement; false (and nothing started) when it is
   * already open: a replayed dispatch.
   */
  open(
    interaction: Pick<OpenInteraction, 'id' | 'token' | 'applicationId' | 'chatId'>,
    acknowledge: () => Promise<boolean>,
  ): boolean;
  /** the interaction `message` answers, if any */
  target(message: OutboundMessage): OpenInteraction | undefined;
  /** a user's plain message arrived in `chatId`: an answered interaction stops being the chat's current one */
  inbound(chatId: string): void;
  /** drops an interaction whose token no longer works */
  forget(interaction: OpenInteraction): void;
  size(): number;
}

/** Creates an empty registry; expired interactions are pruned as new ones open. */
export function createInteractionReplies(now: () => number = Date.now): InteractionReplies {
  const open = new Map<string, OpenInteraction>();
  const current = new Map<string, string>();

  const live = (id: string | undefined): OpenInteraction | undefined => {
    const found = id === undefined ? undefined : open.get(id);
    if (found === undefined || found.expiresAt > now()) return found;
    forget(found);
    return undefined;
  };

  function forget(interaction: OpenInteraction): void {
    open.delete(interaction.id);
    if (current.get(interaction.chatId) === interaction.id) current.delete(interaction.chatId);
  }

  return {
    open(interaction, acknowledge) {
      for (const other of [...open.values()]) live(other.id);
      if (open.has(interaction.id)) return false;
      open.set(interaction.id, {
        ...interaction,
        acknowledged: acknowledge(),
        answered: false,
        expiresAt: now() + INTERACTION_REPLY_WINDOW_MS,
        tail: Promise.resolve(),
      });
      current.set(interaction.chatId, interaction.id);
      return true;
    },
    target(message) {
      if (message.replyToMessageId !== undefined) {
        const named = live(message.replyToMessageId);
        if (named !== undefined) {
          current.set(named.chatId, named.id);
          return named;
        }
        // an answer to a plain message: the chat's answered interaction is done
        if (live(current.get(message.chatId))?.answered === true) current.delete(message.chatId);
        return undefined;
      }
      return live(current.get(message.chatId));
    },
    inbound(chatId) {
      if (live(current.get(chatId))?.answered === true) current.delete(chatId);
    },
    forget,
    size: () => open.size,
  };
}
