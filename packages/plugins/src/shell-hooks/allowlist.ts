/**
 * HERMES_HOME/shell-hooks-allowlist.json: the one consent store of both hook kinds. A shell hook
 * (`kind: shell`) is approved per (event, command), with the script file it ran and that file's
 * sha256 at approval time; a gateway hook (`kind: gateway`) per name, with the sha256 of its
 * folder's files. Written atomically, mode 0600.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '@hermes/protocol';
import { readApprovals } from '../consent-file.js';

export const ALLOWLIST_FILE = 'shell-hooks-allowlist.json';

/** How consent was given. */
export const CONSENT_VIAS = [
  'prompt',
  '--accept-hooks',
  'HERMES_ACCEPT_HOOKS',
  'hooks_auto_accept',
  'hermes hooks approve',
  'hermes hooks install',
] as const;
export type ConsentVia = (typeof CONSENT_VIAS)[number];

function isVia(value: unknown): value is ConsentVia {
  return CONSENT_VIAS.some((via) => via === value);
}

export interface AllowlistEntry {
  kind: 'shell';
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

/** The approval of a gateway hook (HERMES_HOME/hooks/<folder>/HOOK.yaml). */
export interface GatewayHookApproval {
  kind: 'gateway';
  /** HOOK.yaml `name` */
  name: string;
  /** the hook's folder at approval, for people reading the file */
  dir: string;
  /** sha256 over the folder's files (hashHookFolder, folder-hash.ts) */
  sha256: string;
  /** ISO 8601 */
  approved_at: string;
  via: ConsentVia;
}

interface AllowlistFile {
  version: 1;
  approvals: (AllowlistEntry | GatewayHookApproval)[];
}

/** The allowlist path of a Hermes home. */
export function allowlistPath(home: string): string {
  return join(home, ALLOWLIST_FILE);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** One stored gateway-hook approval; one without a name or hash is dropped (it approves nothing). */
function readGatewayEntry(value: Record<string, unknown>): GatewayHookApproval | null {
  const name = str(value.name);
  const sha256 = str(value.sha256);
  if (name === null || sha256 === null) return null;
  return {
    kind: 'gateway',
    name,
    dir: str(value.dir) ?? '',
    sha256,
    approved_at: str(value.approved_at) ?? '',
    via: isVia(value.via) ? value.via : 'prompt',
  };
}

/** One stored approval, tolerant of older or hand-edited entries (no kind = shell, missing hash = null). */
function readEntry(value: unknown): AllowlistEntry | GatewayHookApproval | null {
  if (!isRecord(value)) return null;
  if (value.kind === 'gateway') return readGatewayEntry(value);
  if (value.kind !== undefined && value.kind !== 'shell') return null;
  const event = str(value.event);
  const command = str(value.command);
  if (event === null || command === null) return null;
  return {
    kind: 'shell',
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
  #gateway: GatewayHookApproval[];

  private constructor(path: string, entries: (AllowlistEntry | GatewayHookApproval)[]) {
    this.path = path;
    this.#entries = entries.filter((e): e is AllowlistEntry => e.kind === 'shell');
    this.#gateway = entries.filter((e): e is GatewayHookApproval => e.kind === 'gateway');
  }

  /**
   * Reads the file; a missing file is an empty allowlist. An unreadable or corrupt file is also
   * empty (every hook then needs consent again) and `problem` says why.
   */
  static load(path: string): { allowlist: ShellHookAllowlist; problem: string | null } {
    const { approvals, problem } = readApprovals(path);
    const entries = approvals.map(readEntry).filter((e) => e !== null);
    return { allowlist: new ShellHookAllowlist(path, entries), problem };
  }

  /** Every shell-hook approval, in file order. */
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

  /** Every gateway-hook approval, in file order. */
  gatewayEntries(): readonly GatewayHookApproval[] {
    return this.#gateway;
  }

  /** The approval of the gateway hook `name`, or undefined. */
  findGateway(name: string): GatewayHookApproval | undefined {
    return this.#gateway.find((e) => e.name === name);
  }

  /** Adds the gateway-hook approval, replacing an older one of the same name. */
  upsertGateway(entry: GatewayHookApproval): void {
    this.#gateway = [...this.#gateway.filter((e) => e.name !== entry.name), entry];
  }

  /** Removes the approval of the gateway hook `name`; true when there was one. */
  removeGateway(name: string): boolean {
    const before = this.#gateway.length;
    this.#gateway = this.#gateway.filter((e) => e.name !== name);
    return this.#gateway.length < before;
  }

  /** Writes the file atomically (temp file, fsync, rename), mode 0600. */
  save(): void {
    const file: AllowlistFile = { version: 1, approvals: [...this.#entries, ...this.#gateway] };
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileAtomicSync(this.path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  }
}
