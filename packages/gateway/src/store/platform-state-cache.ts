/**
 * The adapters' platform state on PostgreSQL. Adapters and plugins read and write it synchronously
 * (`PlatformState`), so it is held in memory: loaded once at start, written through to the database
 * in order (a failed write is logged, the value stays in memory), and a platform's keys are read
 * again before this instance takes that platform over from another (its update offset moved on).
 */
import type { Logger } from '@hermes/protocol';
import type { AsyncStore, StoreWrite, UnitOfWork } from '@hermes/store';
import type { AdapterState } from './gateway-store.js';

/** The database's rows: the store's platform state repository. */
export type PlatformStateRows = Pick<AsyncStore['platformState'], 'all' | 'set' | 'delete'>;

export class PlatformStateCache implements AdapterState {
  readonly #values = new Map<string, Map<string, string>>();
  #writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rows: PlatformStateRows,
    private readonly logger: Logger,
  ) {}

  /** Reads every platform's state (or one platform's) from the database into memory. */
  async load(platform?: string): Promise<void> {
    await this.#writes; // this instance's own writes land first
    const rows = await this.rows.all();
    if (platform === undefined) this.#values.clear();
    else this.#values.delete(platform);
    for (const row of rows) {
      if (platform === undefined || row.platform === platform) this.#remember(row.platform, row.key, row.value);
    }
  }

  get(platform: string, key: string): string | undefined {
    return this.#values.get(platform)?.get(key);
  }

  set(platform: string, key: string, value: string): void {
    this.#remember(platform, key, value);
    this.#write(platform, key, () => this.rows.set(platform, key, value));
  }

  delete(platform: string, key: string): void {
    this.#values.get(platform)?.delete(key);
    this.#write(platform, key, () => this.rows.delete(platform, key));
  }

  /** Records the values a committed unit of work wrote (they are in the database already). */
  committed(work: UnitOfWork): void {
    for (const write of work) {
      for (const [platform, key, value] of stateWrites(write)) {
        if (value === undefined) this.#values.get(platform)?.delete(key);
        else this.#remember(platform, key, value);
      }
    }
  }

  /** Resolves once every write issued so far has landed (or failed). */
  flushed(): Promise<unknown> {
    return this.#writes;
  }

  #remember(platform: string, key: string, value: string): void {
    let keys = this.#values.get(platform);
    if (!keys) {
      keys = new Map();
      this.#values.set(platform, keys);
    }
    keys.set(key, value);
  }

  #write(platform: string, key: string, run: () => Promise<unknown>): void {
    this.#writes = this.#writes.then(run).catch((err: unknown) => {
      this.logger.error({ err, platform, key }, 'cannot store platform state in PostgreSQL (kept in memory)');
    });
  }
}

/** The platform-state values a write sets (undefined: deletes). */
function stateWrites(write: StoreWrite): [platform: string, key: string, value: string | undefined][] {
  if (write.kind === 'platformState.set') return [[write.platform, write.key, write.value]];
  if (write.kind === 'platformState.delete') return [[write.platform, write.key, undefined]];
  if (write.kind === 'inbox.accept' && write.state) {
    return Object.entries(write.state).map(([key, value]) => [write.platform, key, value]);
  }
  return [];
}
