/** Share of the character budget kept from the start; the rest comes from the end, where errors usually are. */
const HEAD_SHARE = 0.4;

/** `text` unchanged if it fits in `maxChars`; otherwise its head and tail around `[... N characters omitted ...]`. */
export function capOutput(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const headChars = Math.floor(maxChars * HEAD_SHARE);
  const tailChars = maxChars - headChars;
  const omitted = text.length - headChars - tailChars;
  const tail = tailChars > 0 ? text.slice(text.length - tailChars) : '';
  return `${text.slice(0, headChars)}\n\n[... ${omitted} characters omitted ...]\n\n${tail}`;
}
