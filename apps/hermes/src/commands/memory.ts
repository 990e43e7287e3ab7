/**
 * `hermes memory show|clear`: the builtin provider's files (HERMES_HOME/memories/MEMORY.md and one
 * user's profile, memories/users/<identity>.md: `--user <platform:id>`, default `users.owner`).
 * `clear` asks first unless `--yes`; `--target memory|user` picks one file (default both).
 */
import { BUILTIN_MEMORY_PROVIDER, MEMORY_TARGETS, MemoryFiles, type MemoryTarget, usedChars } from '@hermes/agent';
import { EXIT, isIdentityKey } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';
import { createPrompter } from './plugins-prompt.js';

export interface MemoryCommandOptions {
  target?: string;
  yes?: boolean;
  /** whose profile (an identity key; default `users.owner`) */
  user?: string;
}

function targets(target: string | undefined): readonly MemoryTarget[] {
  if (target === undefined) return MEMORY_TARGETS;
  if ((MEMORY_TARGETS as readonly string[]).includes(target)) return [target as MemoryTarget];
  throw new CliExit(EXIT.USAGE, `--target must be memory or user (got ${JSON.stringify(target)})`);
}

function setup(options: GlobalOptions, user: string | undefined) {
  const { config, home } = loadSettings(options);
  if (user !== undefined && !isIdentityKey(user)) {
    throw new CliExit(EXIT.USAGE, `--user must be an identity key such as telegram:111 (got ${JSON.stringify(user)})`);
  }
  const files = new MemoryFiles(home);
  files.adoptLegacyProfile(config.users.owner);
  const limits: Record<MemoryTarget, number> = {
    memory: config.memory.memory_char_limit,
    user: config.memory.user_char_limit,
  };
  const other =
    config.memory.provider === BUILTIN_MEMORY_PROVIDER
      ? null
      : `note: memory.provider is "${config.memory.provider}"; these are the builtin provider's files, which it does not use\n`;
  return { files, limits, other, user: user ?? config.users.owner };
}

/** Prints each target's file, usage and entries (separated by "§" lines, as in the file). */
export async function memoryShow(options: GlobalOptions, opts: MemoryCommandOptions): Promise<void> {
  const chosen = targets(opts.target);
  const { files, limits, other, user } = setup(options, opts.user);
  const out: string[] = [];
  for (const target of chosen) {
    const entries = files.read(target, user);
    out.push(
      `${files.path(target, user)}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${usedChars(entries)}/${limits[target]} chars`,
    );
    out.push(entries.length === 0 ? '  (empty)' : entries.map((e) => e.replace(/^/gm, '  ')).join('\n  §\n'));
  }
  process.stdout.write(`${other ?? ''}${out.join('\n')}\n`);
}

/** Empties the chosen files after a yes (or `--yes`); nothing is asked when they are empty already. */
export async function memoryClear(options: GlobalOptions, opts: MemoryCommandOptions): Promise<void> {
  const chosen = targets(opts.target);
  const { files, other, user } = setup(options, opts.user);
  if (other) process.stdout.write(other);
  const counts = chosen.map((target) => ({ target, entries: files.read(target, user).length }));
  const total = counts.reduce((n, c) => n + c.entries, 0);
  if (total === 0) {
    process.stdout.write('memory is empty: nothing to clear\n');
    return;
  }
  const what = counts.map((c) => `${c.entries} from ${files.path(c.target, user)}`).join(', ');
  if (opts.yes !== true) {
    const prompter = createPrompter();
    try {
      const answer = await prompter.ask(`Delete ${total} entr${total === 1 ? 'y' : 'ies'} (${what})? [y/N] `);
      if (answer === null) throw new CliExit(EXIT.USAGE, 'no answer on stdin: pass --yes to clear without asking');
      if (!/^y(es)?$/i.test(answer.trim())) {
        process.stdout.write('nothing cleared\n');
        return;
      }
    } finally {
      prompter.close();
    }
  }
  for (const { target } of counts) files.write(target, [], user);
  process.stdout.write(`cleared ${what}\n`);
}
