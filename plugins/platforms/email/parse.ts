/**
 * A mail's bytes parsed with mailparser: MIME structure, encoded words and transfer encodings
 * decoded, every charset it knows turned to Unicode (an unknown one is read as Latin-1/UTF-8 rather
 * than refused), attachments in memory. An HTML body without a text part becomes text with
 * html-to-text (a blockquote becomes `>` lines, images are dropped, links keep their address):
 * mailparser does so for a lone HTML part, not for one inside multipart/related. The HTML converted
 * is capped: a larger HTML body keeps its text part, or none.
 */
import { convert } from 'html-to-text';
import { type ParsedMail, simpleParser } from 'mailparser';

/** HTML bodies longer than this (characters) are not turned into text */
const MAX_HTML_TO_TEXT = 2_000_000;

/** The text of an HTML body. */
export function htmlToText(html: string): string {
  return convert(html.slice(0, MAX_HTML_TO_TEXT), {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
}

export async function parseMail(source: Buffer): Promise<ParsedMail> {
  const parsed = await simpleParser(source, {
    skipImageLinks: true,
    skipTextToHtml: true,
    maxHtmlLengthToParse: MAX_HTML_TO_TEXT,
  });
  if ((parsed.text ?? '').trim() === '' && typeof parsed.html === 'string') parsed.text = htmlToText(parsed.html);
  return parsed;
}
