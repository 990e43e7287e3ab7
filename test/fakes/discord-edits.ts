// Message edits (PATCH /channels/:c/messages/:m) and the bot's own reactions
// (PUT/DELETE /channels/:c/messages/:m/reactions/:emoji/@me) of the fake Discord REST API.
import type { APIMessage } from 'discord.js';

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One successful message edit, in the order received. */
export interface DiscordEdit {
  id: string;
  channel_id: string;
  content: string;
  body: Json;
}

export interface DiscordEditDeps {
  messages: Map<string, { message: APIMessage }>;
  botId: string;
  checkContent(body: Json): Answer | undefined;
  apiError(status: number, code: number, message: string): Answer;
}

export function discordEditRoutes(deps: DiscordEditDeps, edits: DiscordEdit[], reactions: Map<string, string[]>) {
  const find = (channelId: string, messageId: string): APIMessage | undefined => {
    const message = deps.messages.get(messageId)?.message;
    return message?.channel_id === channelId ? message : undefined;
  };

  function editMessage(channelId: string, messageId: string, body: unknown): Answer {
    const message = find(channelId, messageId);
    if (message === undefined) return deps.apiError(404, 10008, 'Unknown Message');
    if (message.author.id !== deps.botId)
      return deps.apiError(403, 50005, 'Cannot edit a message authored by another user');
    if (typeof body !== 'object' || body === null)
      return deps.apiError(400, 50109, 'The request body contains invalid JSON.');
    const json = body as Json;
    const invalid = deps.checkContent(json);
    if (invalid !== undefined) return invalid;
    const content = typeof json.content === 'string' ? json.content : message.content;
    const edited: APIMessage = { ...message, content, edited_timestamp: new Date().toISOString() };
    deps.messages.set(messageId, { message: edited });
    edits.push({ id: messageId, channel_id: channelId, content, body: json });
    return { status: 200, body: edited };
  }

  function reaction(channelId: string, messageId: string, emoji: string, add: boolean): Answer {
    if (find(channelId, messageId) === undefined) return deps.apiError(404, 10008, 'Unknown Message');
    if (emoji.trim() === '') return deps.apiError(400, 10014, 'Unknown Emoji');
    const now = reactions.get(messageId) ?? [];
    const next = add ? (now.includes(emoji) ? now : [...now, emoji]) : now.filter((e) => e !== emoji);
    reactions.set(messageId, next);
    return { status: 204 };
  }

  return {
    editMessage,
    addReaction: (c: string, m: string, emoji: string) => reaction(c, m, emoji, true),
    removeReaction: (c: string, m: string, emoji: string) => reaction(c, m, emoji, false),
  };
}
