/**
 * A first word that is no command (`hermes chta`, `hermes status`, `hermes plugin list`): one line
 * naming it, with the closest command, top-level or one level down (`status` -> `gateway status`).
 */
import type { Command } from 'commander';

/** Words people type for a command that has another name. */
const KNOWN: Record<string, string> = { plugin: 'plugins', hook: 'hooks', log: 'logs', service: 'gateway' };

/** Edit distance counting a swap of two neighbours as one edit (`chta` is 1 from `chat`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return at(a.length, b.length);
}

/** The command closest to `word` (`gateway status` for `status`), or null when none is close. */
export function suggestCommand(program: Command, word: string): string | null {
  const known = KNOWN[word];
  if (known && program.commands.some((c) => c.name() === known)) return known;
  let best: { name: string; score: number } | null = null;
  const consider = (name: string, candidate: string, penalty: number) => {
    const d = distance(word.toLowerCase(), candidate);
    const limit = Math.max(1, Math.floor(candidate.length / 3));
    if (d > limit) return;
    const score = d + penalty;
    if (!best || score < best.score) best = { name, score };
  };
  for (const top of program.commands) {
    consider(top.name(), top.name(), 0);
    for (const sub of top.commands) consider(`${top.name()} ${sub.name()}`, sub.name(), 0.5);
  }
  return (best as { name: string } | null)?.name ?? null;
}

/** The message for an unknown first word. */
export function unknownCommandMessage(program: Command, word: string): string {
  if (/\s/.test(word.trim())) {
    // a prompt without -z
    return `error: unknown command '${word}' (to ask the agent once: \`hermes -z ${JSON.stringify(word)}\`; to chat: \`hermes chat\`)\n(run hermes --help for usage)\n`;
  }
  const suggestion = suggestCommand(program, word);
  return `error: unknown command '${word}'${suggestion ? ` (did you mean \`hermes ${suggestion}\`?)` : ''}\n(run hermes --help for usage)\n`;
}
