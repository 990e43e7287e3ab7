/**
 * The plain `body` of a message whose `formatted_body` is the HTML markdown-to-html.ts made: line
 * breaks and block ends as newlines, bullets kept, links as `text (url)` when the text is not the
 * URL, tags dropped, entities decoded. (Clients without HTML, notifications and search read it.)
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ', '#39': "'" };

const decode = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? '');

/** The plain text of Matrix HTML. */
export function htmlToPlain(html: string): string {
  const text = html
    .replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (_, href: string, label: string) => {
      const url = decode(href);
      const shown = label.replace(/<[^>]+>/g, '');
      return decode(shown) === url ? shown : `${shown} (${href})`;
    })
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<hr>/g, '\n──────────\n')
    .replace(/<\/(h\d|pre|blockquote)>/g, '\n')
    .replace(/<(h\d|pre|blockquote)[^>]*>/g, (tag) => (tag.startsWith('<pre') ? '\n' : '\n'))
    .replace(/<[^>]+>/g, '');
  return decode(text)
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
