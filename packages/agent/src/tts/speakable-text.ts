/**
 * An answer's Markdown as text to speak: MEDIA lines, code blocks and markup taken out (the text
 * answer sent beside the voice note keeps them), then cut at `maxChars`, at a sentence's end
 * where one is near.
 */

export interface SpeakableText {
  text: string;
  /** true when the text was cut at `maxChars` */
  truncated: boolean;
}

/** Plain text from Markdown: what a listener should hear. */
export function plainSpeech(markdown: string): string {
  return (
    markdown
      .replace(/^[ \t]*MEDIA:[^\n]*$/gm, '')
      // fenced code: not read aloud
      .replace(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, '')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/`([^`\n]+)`/g, '$1')
      .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
      .replace(/^[ \t]*>[ \t]?/gm, '')
      .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
      .replace(/^[ \t]*\|?[ \t]*:?-{3,}[^\n]*\n?/gm, '')
      .replace(/\|/g, ' ')
      .replace(/(\*\*|__|~~|\*|_)(?=\S)([^\n]*?\S)\1/g, '$2')
      .replace(/[ \t]+/g, ' ')
      .replace(/^ | $/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/** The text cut at `maxChars`: at the last sentence end in its second half, else the last space. */
export function capSpeech(text: string, maxChars: number): SpeakableText {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = text.slice(0, maxChars);
  const sentence = Math.max(...['. ', '! ', '? ', '.\n', '!\n', '?\n', '…'].map((end) => head.lastIndexOf(end)));
  const cut =
    sentence >= maxChars / 2 ? sentence + 1 : head.lastIndexOf(' ') > maxChars / 2 ? head.lastIndexOf(' ') : maxChars;
  return { text: `${head.slice(0, cut).trimEnd()} …`, truncated: true };
}

/** What a voice answer says for an answer: its plain text, capped. */
export function speakableText(markdown: string, maxChars: number): SpeakableText {
  return capSpeech(plainSpeech(markdown), maxChars);
}
