/**
 * The `hooks:` block of config.yaml, read into runnable shell-hook specs. A bad entry never stops
 * anything: it is skipped with a warning naming config.yaml, the event and the entry index.
 */
import { HOOK_NAMES, type HookName, isHookName } from '@hermes/protocol';
import { closest } from '../did-you-mean.js';
import { CommandSyntaxError, splitCommand } from './split-command.js';
import { isToolEvent, TOOL_EVENTS } from './tool-events.js';

export const SHELL_HOOK_TIMEOUT_DEFAULT_S = 60;
export const SHELL_HOOK_TIMEOUT_MAX_S = 300;

/** One entry as config.yaml holds it (the config schema has checked the types). */
export interface ShellHookEntryConfig {
  readonly matcher?: string | undefined;
  readonly command: string;
  readonly timeout?: number | undefined;
}

/** The `hooks:` block: event name -> entries. */
export type ShellHooksConfig = Readonly<Record<string, readonly ShellHookEntryConfig[]>>;

/** A valid shell hook, ready to register. */
export interface ShellHookSpec {
  event: HookName;
  /** position in `hooks.<event>` (for messages) */
  index: number;
  /** the command as written in config.yaml: the consent key and the owner name `shell:<command>` */
  command: string;
  /** the command split into words, `~` expanded */
  argv: string[];
  /** the matcher as written, or null (always null for non-tool events) */
  matcher: string | null;
  /** the matcher compiled to match the whole tool name, or null for "every call" */
  matcherRegex: RegExp | null;
  timeoutS: number;
}

export interface ReadShellHooksOptions {
  /** config.yaml's path, named in every warning */
  configPath: string;
  /** the user's home directory, for `~` in commands */
  userHome: string;
}

export interface ReadShellHooksResult {
  hooks: ShellHookSpec[];
  /** one line each: `<config.yaml>: hooks.<event>[<i>]: <problem>` */
  warnings: string[];
}

/** Compiles a matcher so it must match the whole tool name (`terminal` does not match `terminal2`). */
export function compileMatcher(source: string): RegExp {
  return new RegExp(`^(?:${source})$`);
}

/** Reads every entry of `hooks`; invalid ones are skipped with a warning, never thrown. */
export function readShellHooks(hooks: ShellHooksConfig, options: ReadShellHooksOptions): ReadShellHooksResult {
  const out: ShellHookSpec[] = [];
  const warnings: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    const list = Array.isArray(entries) ? entries : [];
    if (!isHookName(event)) {
      const suggestion = closest(event, HOOK_NAMES);
      const hint =
        suggestion === null ? ` (valid events: ${HOOK_NAMES.join(', ')})` : `, did you mean "${suggestion}"?`;
      list.forEach((_, index) => {
        warnings.push(
          `${options.configPath}: hooks.${event}[${index}]: unknown event "${event}"${hint}; entry skipped`,
        );
      });
      continue;
    }
    list.forEach((entry, index) => {
      const where = `${options.configPath}: hooks.${event}[${index}]`;
      const spec = readEntry(event, index, entry, options, (problem) => warnings.push(`${where}: ${problem}`));
      if (spec !== null) out.push(spec);
    });
  }
  return { hooks: out, warnings };
}

function readEntry(
  event: HookName,
  index: number,
  entry: ShellHookEntryConfig,
  options: ReadShellHooksOptions,
  warn: (problem: string) => void,
): ShellHookSpec | null {
  const command = typeof entry?.command === 'string' ? entry.command.trim() : '';
  if (command === '') {
    warn('"command" is missing or empty; entry skipped');
    return null;
  }
  let argv: string[];
  try {
    argv = splitCommand(command, { home: options.userHome });
  } catch (error) {
    if (!(error instanceof CommandSyntaxError)) throw error;
    warn(`command cannot be split into words: ${error.message}; entry skipped`);
    return null;
  }
  if (argv.length === 0 || argv[0] === '') {
    warn(`command ${JSON.stringify(command)} names no program; entry skipped`);
    return null;
  }

  let matcher: string | null = null;
  let matcherRegex: RegExp | null = null;
  if (entry.matcher !== undefined && entry.matcher !== null) {
    if (!isToolEvent(event)) {
      warn(`"matcher" is ignored for ${event}: only tool events (${TOOL_EVENTS.join(', ')}) use it`);
    } else {
      try {
        matcherRegex = compileMatcher(String(entry.matcher));
        matcher = String(entry.matcher);
      } catch (error) {
        warn(
          `matcher ${JSON.stringify(entry.matcher)} is not a valid regular expression (${(error as Error).message}); entry skipped`,
        );
        return null;
      }
    }
  }

  let timeoutS = SHELL_HOOK_TIMEOUT_DEFAULT_S;
  if (entry.timeout !== undefined && entry.timeout !== null) {
    if (typeof entry.timeout !== 'number' || !Number.isFinite(entry.timeout) || entry.timeout <= 0) {
      warn(
        `timeout ${JSON.stringify(entry.timeout)} is not a number of seconds > 0; using ${SHELL_HOOK_TIMEOUT_DEFAULT_S}`,
      );
    } else if (entry.timeout > SHELL_HOOK_TIMEOUT_MAX_S) {
      warn(
        `timeout ${entry.timeout} s is over the ${SHELL_HOOK_TIMEOUT_MAX_S} s maximum; clamped to ${SHELL_HOOK_TIMEOUT_MAX_S}`,
      );
      timeoutS = SHELL_HOOK_TIMEOUT_MAX_S;
    } else {
      timeoutS = entry.timeout;
    }
  }
  return { event, index, command, argv, matcher, matcherRegex, timeoutS };
}
