/** The bot's @-mention in Slack text (`<@U123>` or `<@U123|name>`): detect, strip, decode entities. */

function mentionPattern(botUserId: string, withSpaces = false): RegExp {
  const id = botUserId.replace(/[^A-Za-z0-9]/g, '');
  const mention = `<@${id}(?:\\|[^>]*)?>`;
  return new RegExp(withSpaces ? `[ \\t]*${mention}[ \\t]*` : mention, 'g');
}

/** True when `text` @-mentions the bot user. */
export function mentionsBot(text: string, botUserId: string): boolean {
  return mentionPattern(botUserId).test(text);
}

/** Slack escapes &, < and > in message text; this gives the characters back. */
export function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Removes the bot's mentions (so "@bot /new" is the command "/new", "@bot: hi" is "hi"), decodes
 * entities and trims; the rest of the text, indentation included, is kept as written.
 */
export function cleanText(text: string, botUserId: string): string {
  const stripped = text.replace(mentionPattern(botUserId, true), ' ');
  return decodeEntities(stripped)
    .trim()
    .replace(/^[:,](?:[ \t]+|$)/, '');
}
