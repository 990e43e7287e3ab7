/** A slash-command interaction → the MessageEvent `/name args` the gateway's command table reads. */
import type { MessageEvent } from '@hermes/protocol';
import { type ChannelKind, kindOfChannelType } from './channel-kind.js';
import { PLATFORM } from './normalize.js';
import type { InboundCommand } from './payload.js';

/** The chat kind of an interaction's channel: its type when sent, else DM without a guild, else group. */
export function commandChannelKind(command: InboundCommand): ChannelKind {
  if (command.channelType !== undefined) return kindOfChannelType(command.channelType);
  return command.guildId === undefined ? 'dm' : 'group';
}

/**
 * messageId is the interaction id (what the gateway's reply names in replyToMessageId); a slash
 * command is addressed to the bot, so it counts as a mention in groups and threads.
 */
export function commandEvent(command: InboundCommand, raw: unknown, now: number = Date.now()): MessageEvent {
  const kind = commandChannelKind(command);
  const userName = command.user.globalName ?? (command.user.username || undefined);
  const text = [`/${command.name}`, ...command.args].join(' ');
  return {
    kind: 'text',
    platform: PLATFORM,
    messageId: command.id,
    source: {
      platform: PLATFORM,
      chatId: command.channelId,
      chatType: kind,
      ...(kind === 'thread' ? { threadId: command.channelId } : {}),
      userId: command.user.id,
      ...(userName === undefined ? {} : { userName }),
      mentioned: true,
      repliedToBot: false,
    },
    internal: false,
    receivedAt: now,
    raw,
    text,
  };
}
