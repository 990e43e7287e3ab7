/**
 * The `memory` tool's actions on one target's entries: add, replace, remove, with the character
 * limit (`memory.memory_char_limit`, `memory.user_char_limit`) checked before anything is
 * written. Every refusal is an error that says what to do next.
 */
import { joinEntries, type MemoryTarget } from './memory-files.js';

export type MemoryAction = 'add' | 'replace' | 'remove';

export interface MemoryEdit {
  action: MemoryAction;
  target: MemoryTarget;
  /** the new entry (add, replace); unused by remove */
  content: string;
  /** a piece of text that identifies one existing entry (replace, remove) */
  oldText?: string | undefined;
}

export type EditOutcome = { ok: true; entries: string[]; changed: boolean } | { ok: false; error: string };

/** The characters the entries take in the file (separators included): what the limit counts. */
export function usedChars(entries: readonly string[]): number {
  return joinEntries(entries).length;
}

function findOne(entries: readonly string[], oldText: string, target: MemoryTarget): number | string {
  const needle = oldText.trim();
  const matches = entries.flatMap((entry, i) => (entry.includes(needle) ? [i] : []));
  if (matches.length === 0) {
    return `old_text not found in ${target}: no entry contains "${needle}" (copy a piece of the entry exactly)`;
  }
  if (matches.length > 1) {
    return `old_text is ambiguous: ${matches.length} entries of ${target} contain "${needle}"; give a longer piece of the one you mean`;
  }
  return matches[0] as number;
}

/** Applies one edit to `entries` (not mutated); the result is within `limit` or an error. */
export function applyMemoryEdit(entries: readonly string[], edit: MemoryEdit, limit: number): EditOutcome {
  const { target } = edit;
  const content = edit.content.trim();
  let next: string[];
  if (edit.action === 'add') {
    if (entries.includes(content)) return { ok: true, entries: [...entries], changed: false };
    next = [...entries, content];
  } else {
    if (edit.oldText === undefined || edit.oldText.trim() === '') {
      return { ok: false, error: `"${edit.action}" needs old_text: a piece of the entry to ${edit.action}` };
    }
    const at = findOne(entries, edit.oldText, target);
    if (typeof at === 'string') return { ok: false, error: at };
    next = [...entries];
    if (edit.action === 'replace') next[at] = content;
    else next.splice(at, 1);
  }
  const used = usedChars(next);
  if (used > limit) {
    const now = usedChars(entries);
    return {
      ok: false,
      error:
        `${target} is full: ${now} of ${limit} characters used, and this ${edit.action} would make it ${used}. ` +
        'Replace an entry with a shorter one or remove one you no longer need, then try again.',
    };
  }
  return { ok: true, entries: next, changed: true };
}
