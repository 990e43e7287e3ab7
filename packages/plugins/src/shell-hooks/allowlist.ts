/**
 * HERMES_HOME/shell-hooks-allowlist.json: one approval per (event, command), each with the script
 * file it ran and that file's sha256 at approval time. Written atomically, mode 0600.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const ALLOWLIST_FILE = 'shell-hooks-allowlist.json';

/** How consent was given. */
export const CONSENT_VIAS = ['prompt', '--accept-hooks', 'HERMES_ACCEPT_HOOKS', 'hooks_auto_accept'] as const;
export type ConsentVia = (typeof CONSENT_VIAS)[number];

function isVia(value: unknown): value is ConsentVia {
  return CONSENT_VIAS.some((via) => via === value);
}

export interface AllowlistEntry {
  event: string;
  /** the command exactly as written in config.yaml */
  command: string;
  /** absolute path of the script the command ran at approval, or null (no script file) */
  script: string | null;
  /** the script's sha256 at approval, or null */
  sha256: string | null;
  /** ISO 8601 */
  approved_at: string;
  via: ConsentVia;
}

interface AllowlistFile {
  version: 1;
  approvals: AllowlistEntry[];
}

/** The allowlist path of a Hermes home. */
export function allowlistPath(home: string): string {
  return join(home, ALLOWLIST_FILE);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** One stored approval, tolerant of older or hand-edited entries (missing hash = null). */
function readEntry(value: unknown): AllowlistEntry | null {
  if (!isRecord(value)) return null;
  const event = str(value.event);
  const command = str(value.command);
  if (event === null || command === null) return null;
  return {
    event,
    command,
    script: str(value.script),
    sha256: str(value.sha256),
    approved_at: str(value.approved_at) ?? '',
    via: isVia(value.via) ? value.via : 'prompt',
  };
}

export class ShellHookAllowlist {
  readonly path: string;
  #entries: AllowlistEntry[];

  private constructor(path: string, entries: AllowlistEntry[]) {
    this.path = path;
    this.#entries = entries;
  }

  /**
   * Reads the file; a missing file is an empty allowlist. An unreadable or corrupt file is also
   * empty (every hook then needs consent again) and `problem` says why.
   */
  static load(path: string): { allowlist: ShellHookAllowlist; problem: string | null } {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const problem = code === 'ENOENT' ? null : `cannot read ${path} (${code ?? String(error)}); treated as empty`;
      return { allowlist: new ShellHookAllowlist(path, []), problem };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // reported through `problem`, never thrown: a broken allowlist must not stop the agent
      return { allowlist: new ShellHookAllowlist(path, []), problem: `${path} is not valid JSON; treated as empty` };
    }
    const approvals = isRecord(json) && Array.isArray(json.approvals) ? json.approvals : null;
    if (approvals === null) {
      return {
        allowlist: new ShellHookAllowlist(path, []),
        problem: `${path} has no "approvals" list; treated as empty`,
      };
    }
    const entries = approvals.map(readEntry).filter((e): e is AllowlistEntry => e !== null);
    return { allowlist: new ShellHookAllowlist(path, entries), problem: null };
  }

  /** Every approval, in file order. */
  entries(): readonly AllowlistEntry[] {
    return this.#entries;
  }

  /** The approval of (event, command), or undefined. */
  find(event: string, command: string): AllowlistEntry | undefined {
    return this.#entries.find((e) => e.event === event && e.command === command);
  }

  /** Adds the approval, replacing an older one of the same (event, command). */
  upsert(entry: AllowlistEntry): void {
    this.#entries = [...this.#entries.filter((e) => !(e.event === entry.event && e.command === entry.command)), entry];
  }

  /** Removes every approval of `command` (any event); returns how many. */
  removeCommand(command: string): number {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e.command !== command);
    return before - this.#entries.length;
  }

  /** Writes the file atomically (temp file + rename), mode 0600. */
  save(): void {
    const file: AllowlistFile = { version: 1, approvals: this.#entries };
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}
