/**
 * HERMES_HOME/trust.json: the operator's consent for what makes the gateway load or run code at
 * start (plugins, MCP servers, skills, hooks_auto_accept, HERMES_ACCEPT_HOOKS from .env),
 * one approval per item id bound to the sha256 of the item's content. Only the `hermes` CLI run by
 * a human writes it (consent-allowed.ts); file tools and the sandbox never see it. Written
 * atomically, mode 0600. A corrupt file is empty (everything pending again), never fatal.
 */
import { join } from 'node:path';
import { readApprovals } from '@hermes/plugins';
import { writeFileAtomicSync } from '@hermes/protocol';

export const TRUST_FILE = 'trust.json';

/** Which command recorded the consent. */
export type TrustVia =
  | 'hermes trust approve'
  | 'hermes plugins enable'
  | 'hermes config set'
  | 'hermes skills tap'
  | 'console';

export interface TrustApproval {
  /** the item, e.g. `plugin:weather`, `mcp:github`, `config:hooks_auto_accept` */
  id: string;
  /** sha256 of the item's content at approval */
  sha256: string;
  /** ISO 8601 */
  approved_at: string;
  via: TrustVia;
}

const VIAS: readonly TrustVia[] = [
  'hermes trust approve',
  'hermes plugins enable',
  'hermes config set',
  'hermes skills tap',
  'console',
];

/** The trust file of a Hermes home. */
export const trustPath = (home: string): string => join(home, TRUST_FILE);

function readApproval(value: unknown): TrustApproval | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.sha256 !== 'string') return null;
  const via = VIAS.find((x) => x === v.via) ?? 'hermes trust approve';
  return { id: v.id, sha256: v.sha256, approved_at: typeof v.approved_at === 'string' ? v.approved_at : '', via };
}

export class TrustStore {
  readonly path: string;
  #approvals: TrustApproval[];

  private constructor(path: string, approvals: TrustApproval[]) {
    this.path = path;
    this.#approvals = approvals;
  }

  /** Reads HERMES_HOME/trust.json; missing is empty, unreadable or corrupt is empty with `problem` saying why. */
  static load(home: string): { store: TrustStore; problem: string | null } {
    const path = trustPath(home);
    const { approvals, problem } = readApprovals(path);
    const valid = approvals.map(readApproval).filter((a): a is TrustApproval => a !== null);
    return { store: new TrustStore(path, valid), problem };
  }

  /** The approval of `id`, or undefined. */
  find(id: string): TrustApproval | undefined {
    return this.#approvals.find((a) => a.id === id);
  }

  /** Records consent for `id` at `sha256`, replacing an older one. */
  approve(id: string, sha256: string, via: TrustVia, now: Date = new Date()): void {
    const entry: TrustApproval = { id, sha256, approved_at: now.toISOString(), via };
    this.#approvals = [...this.#approvals.filter((a) => a.id !== id), entry];
  }

  /** Removes the approval of `id`; true when there was one. */
  revoke(id: string): boolean {
    const before = this.#approvals.length;
    this.#approvals = this.#approvals.filter((a) => a.id !== id);
    return this.#approvals.length < before;
  }

  /** Writes the file atomically, mode 0600. */
  save(): void {
    writeFileAtomicSync(this.path, `${JSON.stringify({ version: 1, approvals: this.#approvals }, null, 2)}\n`, {
      mode: 0o600,
    });
  }
}
