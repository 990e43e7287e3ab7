/**
 * A first word that is no command (`hermes chta`, `hermes status`, `hermes plugin list`): one line
 * naming it, with the closest command, top-level or one level down (`status` -> `gateway status`).
 */
import { editDistance } from '@hermes/protocol';
import type { Command } from 'commander';

/** Words people type for a command that has another name. */
const KNOWN: Record<string, string> = { plugin: 'plugins', hook: 'hooks', log: 'logs', service: 'gateway' };

/** The command closest to `word` (`gateway status` for `status`), or null when none is close. */
export function suggestCommand(program: Command, word: string): string | null {
  const known = KNOWN[word];
  if (known && program.commands.some((c) => c.name() === known)) return known;
  let best: { name: string; score: number } | null = null;
  const consider = (name: string, candidate: string, penalty: number) => {
    const d = editDistance(word.toLowerCase(), candidate);
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

/**
 * Every command with subcommands says an unknown subcommand the way an unknown first word is said
 * (one line, the suggestion as the whole command to type) and points at its own help
 * (`hermes gateway --help`), not commander's `(Did you mean status?)` and the top-level help.
 */
export function sayUnknownSubcommandsAlike(program: Command): void {
  const visit = (cmd: Command, path: string): void => {
    for (const sub of cmd.commands) {
      if (sub.commands.length === 0) continue;
      const at = `${path} ${sub.name()}`.trim();
      sub.showHelpAfterError(`(run hermes ${at} --help for usage)`);
      sub.configureOutput({
        writeErr: (s) => process.stderr.write(s),
        outputError: (text, write) =>
          write(
            text.replace(
              /^error: unknown command '([^']+)'\n\(Did you mean ([^?]+)\?\)\n/,
              (_all, word: string, near: string) =>
                `error: unknown command '${word}' (did you mean \`hermes ${at} ${near}\`?)\n`,
            ),
          ),
      });
      visit(sub, at);
    }
  };
  visit(program, '');
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
