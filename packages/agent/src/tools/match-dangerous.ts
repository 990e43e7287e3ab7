import { DANGEROUS_PATTERNS, type DangerousPattern } from './dangerous-patterns.js';

export interface DangerousMatch {
  key: string;
  description: string;
}

/**
 * `command` with line continuations, backslashes before letters (`s\udo`) and empty quotes (`su''do`)
 * undone, and every other line break read as the command separator it is to the shell (a
 * pattern that anchors at a command's start matches on the second line of a script too).
 */
export function normalizeCommand(command: string): string {
  return command
    .replace(/\\\r?\n/g, ' ')
    .replace(/\r?\n/g, ';')
    .replace(/\\(?=[A-Za-z])/g, '')
    .replace(/''|""/g, '');
}

/** Compiles extra patterns (JavaScript regex sources, matched case-insensitively) with keys `custom:<source>`; throws TypeError on an invalid one. */
export function compileExtraPatterns(sources: readonly string[]): DangerousPattern[] {
  return sources.map((source) => {
    let regex: RegExp;
    try {
      regex = new RegExp(source, 'i');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new TypeError(`Invalid extraDangerousPatterns entry ${JSON.stringify(source)}: ${reason}`);
    }
    return { key: `custom:${source}`, regex, description: `matches custom pattern /${source}/`, examples: [] };
  });
}

/** Every pattern of `patterns` the normalized command matches, in list order. */
export function matchPatterns(command: string, patterns: readonly DangerousPattern[]): DangerousMatch[] {
  const normalized = normalizeCommand(command);
  return patterns
    .filter((pattern) => pattern.regex.test(normalized))
    .map(({ key, description }) => ({ key, description }));
}

/** The dangerous patterns (built-in list plus `extra` regex sources) that `command` matches; [] when it is safe to run. */
export function matchDangerous(command: string, extra: readonly string[] = []): DangerousMatch[] {
  return matchPatterns(command, [...DANGEROUS_PATTERNS, ...compileExtraPatterns(extra)]);
}
