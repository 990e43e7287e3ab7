/**
 * A mail's header lines as written (mailparser's `headerLines`), unfolded, by lower-case name in
 * the order they appear: the loop guard and the authentication check read raw values, not
 * mailparser's structured ones.
 */

export type RawHeaderLine = { key: string; line: string };

export interface MailHeaders {
  /** every value of a header, first (topmost) first */
  all(name: string): string[];
  /** the first value of a header, trimmed; undefined when absent */
  first(name: string): string | undefined;
  has(name: string): boolean;
}

/** The headers of `lines` (a line without a colon is skipped). */
export function mailHeaders(lines: readonly RawHeaderLine[]): MailHeaders {
  const map = new Map<string, string[]>();
  for (const { line } of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line
      .slice(colon + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    const values = map.get(name);
    if (values === undefined) map.set(name, [value]);
    else values.push(value);
  }
  return {
    all: (name) => map.get(name.toLowerCase()) ?? [],
    first: (name) => map.get(name.toLowerCase())?.[0],
    has: (name) => map.has(name.toLowerCase()),
  };
}
