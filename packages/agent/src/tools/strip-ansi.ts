/**
 * ANSI/VT escape sequences: CSI (colours, cursor moves), OSC (titles, hyperlinks), two-byte
 * escapes, and any stray ESC left by a sequence cut in half.
 */
const ANSI_PATTERN = new RegExp(
  [
    String.raw`[\u001b\u009b]\[[0-?]*[ -/]*[@-~]`,
    String.raw`\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)`,
    String.raw`\u001b[PX^_][^\u001b]*\u001b\\`,
    String.raw`\u001b[ -/]*[0-~]`,
    String.raw`\u001b`,
  ].join('|'),
  'g',
);

/** `text` without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}
