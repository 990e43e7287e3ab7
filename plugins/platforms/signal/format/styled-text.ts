/**
 * Signal's text styles (the message's `bodyRanges`): a style over `length` characters from `start`,
 * both counted in UTF-16 code units as Signal counts them, which is what a JavaScript string's
 * indices and length are. signal-cli's `send` takes each as `start:length:STYLE` (its `textStyle`).
 */

/** The styles signal-cli's `--text-style` takes besides NONE (TextStyle.Style). */
export type SignalTextStyle = 'BOLD' | 'ITALIC' | 'STRIKETHROUGH' | 'MONOSPACE' | 'SPOILER';

export interface StyleRange {
  /** UTF-16 code units from the start of the message */
  start: number;
  /** UTF-16 code units, at least 1 */
  length: number;
  style: SignalTextStyle;
}

/** A message as Signal shows it: the text without markup, and the ranges styling it. */
export interface StyledText {
  text: string;
  styles: StyleRange[];
}

/** Text written left to right with the styles over what was written inside each `styled` call. */
export class StyledBuilder {
  #text = '';
  readonly #styles: StyleRange[] = [];

  get text(): string {
    return this.#text;
  }

  append(text: string): void {
    this.#text += text;
  }

  /** Writes what `write` appends, styled; an empty stretch gets no range. */
  styled(style: SignalTextStyle, write: () => void): void {
    const start = this.#text.length;
    write();
    const length = this.#text.length - start;
    if (length > 0) this.#styles.push({ start, length, style });
  }

  /** The text and its ranges, ordered by start (the longer first, then by style, where two start together). */
  result(): StyledText {
    const styles = [...this.#styles].sort(
      (a, b) => a.start - b.start || b.length - a.length || a.style.localeCompare(b.style),
    );
    return { text: this.#text, styles };
  }
}

/** The ranges as signal-cli's `textStyle` values: `start:length:STYLE`. */
export function textStyleParams(styles: readonly StyleRange[]): string[] {
  return styles.map((s) => `${s.start}:${s.length}:${s.style}`);
}
