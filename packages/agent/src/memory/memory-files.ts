/**
 * The built-in provider's files: HERMES_HOME/memories/MEMORY.md (the agent's notes) and USER.md
 * (what it knows about the user). One entry after another, separated by a line holding only `§`,
 * so a person can edit them by hand. The folder is created 0700, the files 0600, and every write
 * replaces the file atomically (a crash leaves the old or the new text, never half of one).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@hermes/protocol';

export type MemoryTarget = 'memory' | 'user';
export const MEMORY_TARGETS: readonly MemoryTarget[] = ['memory', 'user'];

/** The line between two entries. */
export const ENTRY_SEPARATOR = '§';
const SEPARATOR_LINE = /^[ \t]*§[ \t]*$/m;

const FILE_NAMES: Readonly<Record<MemoryTarget, string>> = { memory: 'MEMORY.md', user: 'USER.md' };

/** The entries of a file's text (blank entries dropped, each trimmed). */
export function parseEntries(text: string): string[] {
  return text
    .split(SEPARATOR_LINE)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The text of the entries as stored (and as the system prompt shows them). */
export function joinEntries(entries: readonly string[]): string {
  return entries.join(`\n${ENTRY_SEPARATOR}\n`);
}

export class MemoryFiles {
  readonly dir: string;

  /** `home`: HERMES_HOME; the files live in its `memories/` folder. */
  constructor(home: string) {
    this.dir = join(home, 'memories');
  }

  path(target: MemoryTarget): string {
    return join(this.dir, FILE_NAMES[target]);
  }

  /** The target's entries; none when the file does not exist yet. */
  read(target: MemoryTarget): string[] {
    const file = this.path(target);
    if (!existsSync(file)) return [];
    return parseEntries(readFileSync(file, 'utf8'));
  }

  /** Replaces the target's entries (atomically; folder 0700, file 0600). */
  write(target: MemoryTarget, entries: readonly string[]): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const text = entries.length === 0 ? '' : `${joinEntries(entries)}\n`;
    writeFileAtomicSync(this.path(target), text, { mode: 0o600 });
  }
}
