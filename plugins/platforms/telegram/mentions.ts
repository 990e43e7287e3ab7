/** Whether a message addresses the bot: @mention, text mention, or /command@bot; and command clean-up. */
import type { MessageEntity } from 'grammy/types';
import type { BotIdentity } from './bot-identity.js';

/** True when an entity in `text` mentions the bot (entity offsets are UTF-16, like JS strings). */
export function mentionsBot(text: string, entities: readonly MessageEntity[], bot: BotIdentity): boolean {
  const handle = `@${bot.username}`.toLowerCase();
  return entities.some((entity) => {
    const slice = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === 'mention') return slice === handle;
    if (entity.type === 'text_mention') return entity.user.id === bot.id;
    if (entity.type === 'bot_command') return slice.endsWith(handle);
    return false;
  });
}

/** Turns a leading `/command@thisbot` into `/command`; other text is returned as is. */
export function stripCommandSuffix(text: string, bot: BotIdentity): string {
  const match = /^(\/[A-Za-z0-9_]{1,32})@([A-Za-z0-9_]{3,32})(?=\s|$)/.exec(text);
  if (match?.[1] === undefined || match[2]?.toLowerCase() !== bot.username.toLowerCase()) return text;
  return match[1] + text.slice(match[0].length);
}
