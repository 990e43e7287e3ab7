/**
 * The built-in provider's files: HERMES_HOME/memories/MEMORY.md (the agent's notes, one for every
 * user) and one profile per user, memories/users/<owner identity, made safe>.md (what it knows
 * about that user; the USER.md of before users apart becomes the profile of `users.owner`). One entry after another, separated by a line holding only `§`,
 * so a person can edit them by hand. The folder is created 0700, the files 0600, and every write
 * replaces the file atomically (a crash leaves the old or the new text, never half of one).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { safeIdentityName, writeFileAtomicSync } from '@hermes/protocol';

export type MemoryTarget = 'memory' | 'user';
export const MEMORY_TARGETS: readonly MemoryTarget[] = ['memory', 'user'];

/** The line between two entries. */
export const ENTRY_SEPARATOR = '§';
const SEPARATOR_LINE = /^[ \t]*§[ \t]*$/m;

/** The agent-wide notes. */
export const MEMORY_FILE = 'MEMORY.md';
/** The one global user profile of before users apart (moved to its owner's profile at start). */
export const LEGACY_USER_FILE = 'USER.md';
/** The folder of the per-user profiles, in memories/. */
export const PROFILES_DIR = 'users';

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

  /** The file of a target: MEMORY.md, or the profile of `userKey` (an owner identity key). */
  path(target: MemoryTarget, userKey: string): string {
    if (target === 'memory') return join(this.dir, MEMORY_FILE);
    return join(this.dir, PROFILES_DIR, `${safeIdentityName(userKey)}.md`);
  }

  /** The target's entries (the profile of `userKey`); none when the file does not exist yet. */
  read(target: MemoryTarget, userKey: string): string[] {
    const file = this.path(target, userKey);
    if (!existsSync(file)) return [];
    return parseEntries(readFileSync(file, 'utf8'));
  }

  /** Replaces the target's entries (atomically; folders 0700, file 0600). */
  write(target: MemoryTarget, entries: readonly string[], userKey: string): void {
    const file = this.path(target, userKey);
    this.#folders(target);
    const text = entries.length === 0 ? '' : `${joinEntries(entries)}\n`;
    writeFileAtomicSync(file, text, { mode: 0o600 });
  }

  /**
   * The migration of a memory folder of before users apart: its global USER.md becomes the
   * profile of `owner` (unless that profile exists already). True when it moved the file.
   */
  adoptLegacyProfile(owner: string): boolean {
    const legacy = join(this.dir, LEGACY_USER_FILE);
    const profile = this.path('user', owner);
    if (!existsSync(legacy) || existsSync(profile)) return false;
    this.#folders('user');
    renameSync(legacy, profile);
    return true;
  }

  #folders(target: MemoryTarget): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    if (target === 'user') {
      const profiles = join(this.dir, PROFILES_DIR);
      mkdirSync(profiles, { recursive: true, mode: 0o700 });
      chmodSync(profiles, 0o700);
    }
  }
}
