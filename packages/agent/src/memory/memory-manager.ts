/**
 * The active memory provider around each turn: the session's memory block (taken once when the
 * session starts, stored in state.db and reused, so the system prompt stays byte-identical across
 * turns and restarts), prefetch before the turn (this request's context only), sync after a
 * completed turn and onSessionEnd after every run. The block is per session AND user (a group
 * chat's session holds one block per user who spoke in it: each sees only their own profile). A provider method that throws, rejects or
 * outlasts its deadline is logged and skipped: the turn always goes on.
 */
import type {
  Logger,
  MaybePromise,
  MemoryProvider,
  MemorySession,
  MemorySessionEnd,
  MemoryTurnEnd,
  MemoryTurnStart,
  ToolDefinition,
} from '@hermes/protocol';

/** The toolset of memory tools (`agent.toolsets`). */
export const MEMORY_TOOLSET = 'memory';
/** How long a provider method may take before the turn goes on without it. */
export const MEMORY_CALL_TIMEOUT_MS = 10_000;
const CACHED_BLOCKS = 1_000;

/**
 * Where each session's block is kept, with the owner identity it was taken for (the store's
 * memory snapshots satisfy it: the first user's block is stored, a later user's is kept in memory).
 */
export interface MemorySnapshots {
  get(sessionId: string, userKey?: string): MaybePromise<string | undefined>;
  put(sessionId: string, provider: string, block: string, userKey?: string): MaybePromise<boolean>;
}

export interface MemoryManagerOptions {
  /** the active provider; null when `memory.provider` names none (see `problem`) */
  provider: MemoryProvider | null;
  /** what is wrong when provider is null: the memory tool answers it, the log says it */
  problem?: string;
  snapshots?: MemorySnapshots;
  logger: Logger;
  timeoutMs?: number;
}

export interface MemoryBeforeTurn {
  /** the session's memory block for the system prompt ('' for none) */
  block: string;
  /** this turn's prefetched context (null for none) */
  context: string | null;
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class MemoryManager {
  readonly provider: MemoryProvider | null;
  readonly problem: string | null;
  readonly #snapshots: MemorySnapshots | null;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #blocks = new Map<string, string>();

  constructor(options: MemoryManagerOptions) {
    this.provider = options.provider;
    this.problem = options.provider ? null : (options.problem ?? 'no memory provider is active');
    this.#snapshots = options.snapshots ?? null;
    this.#logger = options.logger;
    this.#timeoutMs = options.timeoutMs ?? MEMORY_CALL_TIMEOUT_MS;
  }

  /** The provider's name, or null when none is active. */
  get name(): string | null {
    return this.provider?.name ?? null;
  }

  /** Runs one provider method; undefined (logged) when it throws, rejects or outlasts the deadline. */
  async #call<T>(method: string, sessionId: string, fn: (p: MemoryProvider) => T | Promise<T>): Promise<T | undefined> {
    const provider = this.provider;
    if (provider === null) return undefined;
    try {
      return await withDeadline(
        Promise.resolve().then(() => fn(provider)),
        this.#timeoutMs,
        `memory provider "${provider.name}" ${method}`,
      );
    } catch (err) {
      this.#logger.error(
        { err, sessionId, memoryProvider: provider.name, method },
        `memory provider "${provider.name}" failed in ${method}; the turn goes on without it`,
      );
      return undefined;
    }
  }

  /** The session's block for its user: remembered, else stored, else asked of the provider now and stored. */
  async block(session: MemorySession): Promise<string> {
    const userKey = session.user?.key;
    const cacheKey = userKey === undefined ? session.sessionId : `${session.sessionId}\n${userKey}`;
    const known = this.#blocks.get(cacheKey) ?? (await this.#snapshots?.get(session.sessionId, userKey));
    if (known !== undefined) return this.#remember(cacheKey, known);
    const asked = await this.#call('systemPromptBlock', session.sessionId, (p) => p.systemPromptBlock(session));
    const block = typeof asked === 'string' ? asked.trim() : '';
    // a failed ask is not stored: the next turn asks again
    if (asked !== undefined && this.provider) {
      await this.#snapshots?.put(session.sessionId, this.provider.name, block, userKey);
    }
    return this.#remember(cacheKey, block);
  }

  #remember(sessionId: string, block: string): string {
    this.#blocks.delete(sessionId);
    this.#blocks.set(sessionId, block);
    if (this.#blocks.size > CACHED_BLOCKS) {
      const oldest = this.#blocks.keys().next().value;
      if (oldest !== undefined) this.#blocks.delete(oldest);
    }
    return block;
  }

  /** Before a turn: the block and the prefetched context. */
  async beforeTurn(turn: MemoryTurnStart): Promise<MemoryBeforeTurn> {
    const block = await this.block(turn);
    const prefetched = this.provider?.prefetch
      ? await this.#call('prefetch', turn.sessionId, (p) => p.prefetch?.(turn))
      : undefined;
    const context = typeof prefetched === 'string' && prefetched.trim() !== '' ? prefetched.trim() : null;
    return { block, context };
  }

  /** After a turn: sync when it answered, then onSessionEnd. */
  async afterTurn(end: MemorySessionEnd & { userMessage: string; assistantResponse: string | null }): Promise<void> {
    if (end.completed && end.assistantResponse !== null && this.provider?.sync) {
      const turn: MemoryTurnEnd = {
        sessionId: end.sessionId,
        platform: end.platform,
        ...(end.user ? { user: end.user } : {}),
        userMessage: end.userMessage,
        assistantResponse: end.assistantResponse,
      };
      await this.#call('sync', end.sessionId, (p) => p.sync?.(turn));
    }
    if (this.provider?.onSessionEnd) {
      const session: MemorySessionEnd = {
        sessionId: end.sessionId,
        platform: end.platform,
        ...(end.user ? { user: end.user } : {}),
        completed: end.completed,
        interrupted: end.interrupted,
      };
      await this.#call('onSessionEnd', end.sessionId, (p) => p.onSessionEnd?.(session));
    }
  }

  /**
   * The provider's tools for the registry (toolset `memory`). With no provider, a `memory` tool
   * that answers the problem (so the model, and through it the user, learns why memory is off).
   */
  tools(): ToolDefinition[] {
    const owner = `memory:${this.provider?.name ?? 'none'}`;
    if (this.provider === null) {
      const problem = this.problem ?? '';
      return [
        {
          name: 'memory',
          toolset: MEMORY_TOOLSET,
          owner,
          schema: { name: 'memory', description: `Memory is off: ${problem}`, parameters: { type: 'object' } },
          handler: () => ({ success: false, error: problem }),
        },
      ];
    }
    return (this.provider.tools ?? []).map((tool) => ({
      name: tool.name,
      toolset: MEMORY_TOOLSET,
      owner,
      schema: tool.schema,
      handler: tool.handler,
      ...(tool.emoji ? { emoji: tool.emoji } : {}),
    }));
  }

  /** The names of the tools that write memory (all but those declaring `writes: false`): what a delegated child leaves out. */
  writeToolNames(): string[] {
    if (this.provider === null) return ['memory'];
    return (this.provider.tools ?? []).filter((tool) => tool.writes !== false).map((tool) => tool.name);
  }
}
