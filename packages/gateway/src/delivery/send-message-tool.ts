/**
 * The `send_message` tool: `{action: "send"|"list", target, message, media?}` (`media`: files to attach,
 * checked like an answer's `MEDIA:` lines). `target` is `origin` (the
 * chat the current turn answers), `<platform>` (its home channel, `<PLATFORM>_HOME_CHANNEL`), or
 * `<platform>:<chat_id>[:<thread_id>]`. An explicit chat must be a home channel, the origin, or a
 * chat authorized users wrote from since the gateway started, and an explicit thread the origin's or
 * one they wrote in: the model cannot message strangers.
 */
import type { ToolDefinition } from '@hermes/protocol';
import type { DeliveryResult, DeliveryTarget } from './deliver.js';

/** What `send_message` (and cron's target check) asks of the gateway; `Gateway` satisfies it. */
export interface MessagingGatewayPort {
  /** the connected platforms, by name */
  readonly adapters: ReadonlyMap<string, unknown>;
  originOf(sessionId: string): DeliveryTarget | undefined;
  isKnownChat(platform: string, chatId: string, threadId?: string): boolean;
  sendTo(target: DeliveryTarget, markdown: string, media?: readonly string[]): Promise<DeliveryResult>;
}

export interface SendMessageDeps {
  gateway: MessagingGatewayPort;
  env: Readonly<Record<string, string | undefined>>;
}

const homeOf = (env: SendMessageDeps['env'], platform: string) => env[`${platform.toUpperCase()}_HOME_CHANNEL`];

/** Resolves a target string to a delivery target, or an error message. */
export function resolveTarget(deps: SendMessageDeps, target: string, sessionId: string): DeliveryTarget | string {
  if (target === 'origin') return deps.gateway.originOf(sessionId) ?? 'no origin: this turn does not come from a chat';
  const [platform = '', chatId, threadId] = target.split(':');
  if (!deps.gateway.adapters.has(platform)) {
    return `platform "${platform}" is not connected (connected: ${[...deps.gateway.adapters.keys()].join(', ') || 'none'})`;
  }
  const home = homeOf(deps.env, platform);
  if (!chatId) return home ? { platform, chatId: home } : `${platform} has no home channel (send /sethome in a chat)`;
  const origin = deps.gateway.originOf(sessionId);
  const allowed =
    chatId === home ||
    (origin?.platform === platform && origin.chatId === chatId) ||
    deps.gateway.isKnownChat(platform, chatId);
  if (!allowed) return `chat ${platform}:${chatId} is not a home channel or a chat I talk with`;
  if (threadId) {
    // on some platforms a thread is a chat of its own (Discord: its channel id, where the message goes):
    // only the origin's thread, or one allowed users wrote in, may be named
    const ownThread = origin?.platform === platform && origin.chatId === chatId && origin.threadId === threadId;
    if (!ownThread && !deps.gateway.isKnownChat(platform, chatId, threadId)) {
      return `thread ${platform}:${chatId}:${threadId} is not a thread I talk in`;
    }
  }
  return { platform, chatId, ...(threadId ? { threadId } : {}) };
}

/** Builds the tool for a running gateway. */
export function createSendMessageTool(deps: SendMessageDeps): ToolDefinition {
  return {
    name: 'send_message',
    toolset: 'messaging',
    owner: 'builtin',
    emoji: '✉️',
    schema: {
      name: 'send_message',
      description:
        'Send a message to a chat through the gateway, or list where messages can go. target: "origin" (this chat), ' +
        '"<platform>" (its home channel, e.g. "discord"), or "<platform>:<chat_id>[:<thread_id>]".',
      parameters: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['send', 'list'] },
          target: { type: 'string', description: 'origin, a platform name, or platform:chat_id[:thread_id]' },
          message: { type: 'string', description: 'the text to send (Markdown)' },
          media: {
            type: 'array',
            items: { type: 'string' },
            description: 'files to attach: absolute paths or https URLs (images go as photos)',
          },
        },
        required: ['action'],
      },
    },
    handler: async (args, context) => {
      if (args.action === 'list') {
        return {
          platforms: [...deps.gateway.adapters.keys()].map((p) => ({
            platform: p,
            home_channel: homeOf(deps.env, p) ?? null,
          })),
          origin: deps.gateway.originOf(context.sessionId) ?? null,
        };
      }
      if (args.action !== 'send') return { error: 'action must be "send" or "list"' };
      if (typeof args.target !== 'string' || args.target === '') return { error: 'target: expected a string' };
      const media = args.media ?? [];
      if (!Array.isArray(media) || media.some((m) => typeof m !== 'string' || m.trim() === '')) {
        return { error: 'media: expected an array of file paths or https URLs' };
      }
      const message = args.message ?? '';
      if (typeof message !== 'string' || (message.trim() === '' && media.length === 0))
        return { error: 'message: expected a non-empty string (or media to send)' };
      const target = resolveTarget(deps, args.target, context.sessionId);
      if (typeof target === 'string') return { error: target };
      // files from the media cache: the asking user's own folder only (media-source.ts)
      const owned = context.user ? { ...target, mediaOwner: context.user.key } : target;
      const result = await deps.gateway.sendTo(owned, message, media as string[]);
      return result.failed > 0
        ? { error: `not delivered: ${result.errors.join('; ')}` }
        : { sent: true, chunks: result.sent };
    },
  };
}
