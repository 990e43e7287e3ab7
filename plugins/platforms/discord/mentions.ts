/** Whether a message addresses the bot (user or managed-role mention), and its text with mentions made readable. */
import type { BotIdentity } from './bot-identity.js';
import type { InboundMessage } from './payload.js';

const USER_MENTION = /<@!?(\d+)>/g;

/** True when the bot's user, or its managed role in this guild, is mentioned. */
export function mentionsBot(message: InboundMessage, bot: BotIdentity, botRoleId?: string): boolean {
  if (message.mentions.some((user) => user.id === bot.id)) return true;
  return botRoleId !== undefined && message.mentionRoleIds.includes(botRoleId);
}

function isBotMention(token: string, bot: BotIdentity, botRoleId?: string): boolean {
  return (
    token === `<@${bot.id}>` || token === `<@!${bot.id}>` || (botRoleId !== undefined && token === `<@&${botRoleId}>`)
  );
}

/**
 * The text the gateway sees: leading mentions of the bot removed (so `@bot /new` is `/new`), a bot
 * mention inside the text written `@Name`, other user mentions written `@name` when Discord named them.
 */
export function readableText(message: InboundMessage, bot: BotIdentity, botRoleId?: string): string {
  let text = message.content.trimStart();
  for (;;) {
    const leading = /^<@[!&]?\d+>/.exec(text)?.[0];
    if (leading === undefined || !isBotMention(leading, bot, botRoleId)) break;
    text = text.slice(leading.length).trimStart();
  }
  if (botRoleId !== undefined) text = text.replaceAll(`<@&${botRoleId}>`, `@${bot.name}`);
  const names = new Map(message.mentions.map((user) => [user.id, user.globalName ?? user.username]));
  return text
    .replace(USER_MENTION, (token, id: string) => {
      if (id === bot.id) return `@${bot.name}`;
      const name = names.get(id);
      return name === undefined || name === '' ? token : `@${name}`;
    })
    .trim();
}
