/**
 * ANSI/VT escape sequences out of terminal output: Node's `util.stripVTControlCharacters` (CSI
 * colours and cursor moves, OSC titles and hyperlinks, two-byte escapes); then what it leaves of
 * a sequence cut in half (output is capped before it is stripped): an unfinished CSI at the end,
 * and any stray ESC or C1 CSI byte.
 */
import { stripVTControlCharacters } from 'node:util';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC and C1 CSI are the bytes this removes
const CUT_CSI_AT_END = /(?:\u001b\[?|\u009b)[0-?]*[ -/]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC and C1 CSI are the bytes this removes
const STRAY_ESC = /[\u001b\u009b]/g;

/** `text` without ANSI escape sequences or stray ESC bytes. */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text).replace(CUT_CSI_AT_END, '').replace(STRAY_ESC, '');
}
