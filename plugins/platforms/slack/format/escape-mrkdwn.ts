/** Slack's three control characters in message text: &, < and > must be sent as entities. */

/** Escapes &, < and > (and nothing else, as Slack asks). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
