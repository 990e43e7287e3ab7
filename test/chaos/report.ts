// The printed figures of the chaos run: aligned tables, and the breakdown per platform and mode.
import type { OfferedMessage, Verdict } from './ledger.js';
import type { ChaosPlatform } from './platforms.js';

export function table(rows: Record<string, number | string>): string {
  const width = Math.max(...Object.keys(rows).map((k) => k.length));
  return Object.entries(rows)
    .map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)
    .join('\n');
}

/** the verdicts of messages the platform itself never delivered to a live gateway (listed, excused) */
export const NOT_DELIVERED: readonly Verdict[] = [
  'discord-offline',
  'discord-at-kill',
  'slack-acked-not-stored',
  'slack-gave-up',
];

export interface PlatformFigures {
  messages: number;
  answered: number;
  interrupted: number;
  /** a reply posted twice: the chunk reached the platform, its sent mark died with a kill -9 */
  sentTwice: number;
  /** accepted (stored, or on a platform that redelivers) and neither answered nor apologised for */
  neverAnswered: number;
  /** never reached a live gateway, the platform's own window (listed) */
  notDelivered: number;
  /** pushed modes: deliveries or requests sent again after a failed attempt */
  retries: number;
}

/** The figures per platform and mode ("telegram (webhook)"). */
export function figuresByPlatform(
  platforms: readonly ChaosPlatform[],
  messages: readonly OfferedMessage[],
  verdictOf: ReadonlyMap<number, Verdict>,
): Record<string, PlatformFigures> {
  const out: Record<string, PlatformFigures> = {};
  for (const p of platforms) {
    const mine = messages.filter((m) => m.platform === p.name);
    const count = (...verdicts: Verdict[]) =>
      mine.filter((m) => verdicts.includes(verdictOf.get(m.key) ?? 'lost')).length;
    out[`${p.name} (${p.mode})`] = {
      messages: mine.length,
      answered: count('answered', 'resent-after-kill'),
      interrupted: count('interrupted'),
      sentTwice: count('resent-after-kill'),
      neverAnswered: count('lost'),
      notDelivered: count(...NOT_DELIVERED),
      retries: p.pushRetries?.() ?? 0,
    };
  }
  return out;
}

/** One line per platform: `messages / answered / interrupted / sent twice / never answered / not delivered / retries`. */
export function figuresTable(figures: Record<string, PlatformFigures>): string {
  return table(
    Object.fromEntries(
      Object.entries(figures).map(([name, f]) => [
        name,
        `${f.messages} / ${f.answered} / ${f.interrupted} / ${f.sentTwice} / ${f.neverAnswered} / ${f.notDelivered} / ${f.retries}`,
      ]),
    ),
  );
}

/** pushed modes: what each delivery's failed attempts got, e.g. ` deliveries [["no gateway","503"]]` */
export const pushFailures = (p: ChaosPlatform | undefined, key: number): string => {
  const outcomes = p?.pushOutcomes?.(key) ?? [];
  return outcomes.length === 0 ? '' : `, deliveries ${JSON.stringify(outcomes.map((o) => o.failures))}`;
};
