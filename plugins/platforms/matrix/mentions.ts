/**
 * Whether a message addresses the bot, and its text without the address: intentional mentions
 * (`m.mentions.user_ids`, Matrix 1.7) when the message carries them; else, as older clients send,
 * a pill (`<a href="https://matrix.to/#/@bot:server">`) in the HTML, or the bot's user id or
 * display name in the text. A rich reply's quoted fallback (`> <@user:server> ...`) is dropped.
 */
import { isRecord } from './client.js';
import { type BotIdentity, localpart } from './identity.js';

type Json = Record<string, unknown>;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names the bot goes by in a message's text: its user id, its display name, its localpart. */
function names(bot: BotIdentity): string[] {
  return [bot.userId, bot.displayName, localpart(bot.userId)].filter((n): n is string => n !== undefined && n !== '');
}

/** Whether `content` mentions the bot; `body` is its text without a reply's quoted fallback. */
export function mentionsBot(content: Json, body: string, bot: BotIdentity): boolean {
  const intentional = content['m.mentions'];
  if (isRecord(intentional)) {
    return Array.isArray(intentional.user_ids) && intentional.user_ids.includes(bot.userId);
  }
  const formatted = typeof content.formatted_body === 'string' ? content.formatted_body : '';
  const html = formatted.replace(/<mx-reply>[\s\S]*?<\/mx-reply>/g, '');
  const pill = new RegExp(
    `matrix\\.to/#/(${escapeRegExp(bot.userId)}|${escapeRegExp(encodeURIComponent(bot.userId))})`,
    'i',
  );
  if (pill.test(html)) return true;
  if (body.includes(bot.userId)) return true;
  return (
    bot.displayName !== undefined &&
    new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(bot.displayName)}([^\\p{L}\\p{N}]|$)`, 'iu').test(body)
  );
}

/** The text without a leading address to the bot (`Hermes: `, `@hermes:example.org `) and without its user id. */
export function withoutMention(body: string, bot: BotIdentity): string {
  let text = body;
  for (const name of names(bot)) {
    text = text.replace(new RegExp(`^\\s*@?${escapeRegExp(name)}\\s*[:,]?\\s*`, 'iu'), '');
  }
  return text.split(bot.userId).join('').replace(/ {2,}/g, ' ').trim();
}

/** A rich reply's body without its quoted fallback (the `> ` lines before the first blank line). */
export function withoutReplyFallback(body: string): { text: string; quotedAuthor: string | undefined } {
  if (!body.startsWith('> ')) return { text: body, quotedAuthor: undefined };
  const lines = body.split('\n');
  let i = 0;
  while (i < lines.length && (lines[i] ?? '').startsWith('>')) i += 1;
  if (i < lines.length && (lines[i] ?? '').trim() === '') i += 1;
  const author = /^> <(@[^>\s]+)>/.exec(lines[0] ?? '')?.[1];
  return { text: lines.slice(i).join('\n'), quotedAuthor: author };
}
