/**
 * A mail's bytes parsed with mailparser: MIME structure, encoded words and transfer encodings
 * decoded, every charset it knows turned to Unicode (an unknown one is read as Latin-1/UTF-8 rather
 * than refused), HTML turned to text (html-to-text; a blockquote becomes `>` lines), attachments in
 * memory. The HTML converted is capped: a larger HTML body keeps its text part, or none.
 */
import { type ParsedMail, simpleParser } from 'mailparser';

/** HTML bodies longer than this (characters) are not turned into text */
const MAX_HTML_TO_TEXT = 2_000_000;

export function parseMail(source: Buffer): Promise<ParsedMail> {
  return simpleParser(source, { skipImageLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: MAX_HTML_TO_TEXT });
}
