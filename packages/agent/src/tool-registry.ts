/** Tools by name, grouped in toolsets, with availability checks (toolset filter, env, checkFn). */
import type { Logger, ToolDefinition } from '@hermes/protocol';
import { enablesTool, silentLogger } from '@hermes/protocol';
import { serializeResult } from './tool-executor.js';

export interface AvailabilityOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** enabled toolsets or tool names; "*" enables all but the opt-in tools (enablesTool) */
  toolsets: readonly string[];
  /** tool names left out whatever the toolsets say (e.g. memory writes for a delegated child) */
  exclude?: readonly string[];
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();
  /** the tools sorted by name, made again after a register or an unregister (every turn asks) */
  #sorted: readonly ToolDefinition[] | null = null;
  readonly #logger: Logger;
  readonly #redact: ((text: string) => string) | null;

  /**
   * `redact`, when given, is applied to every tool's result (serialized) before the hooks, the model
   * or the transcript see it: secrets read by any tool, built-in or plugin, never go further.
   */
  constructor(logger: Logger = silentLogger, options: { redact?: (text: string) => string } = {}) {
    this.#logger = logger;
    this.#redact = options.redact ?? null;
  }

  /** Adds a tool; a second tool with the same name is refused. Returns the unregister function. */
  register(tool: ToolDefinition): () => void {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) {
      throw new TypeError(`Tool name "${tool.name}" must be 1-64 letters, digits, "_" or "-"`);
    }
    const existing = this.#tools.get(tool.name);
    if (existing) {
      throw new TypeError(`Tool "${tool.name}" is already registered by ${existing.owner ?? 'builtin'}`);
    }
    if (typeof tool.handler !== 'function') throw new TypeError(`Tool "${tool.name}" has no handler function`);
    const redact = this.#redact;
    const stored: ToolDefinition =
      redact === null
        ? tool
        : { ...tool, handler: async (args, context) => redact(serializeResult(await tool.handler(args, context))) };
    this.#tools.set(tool.name, stored);
    this.#sorted = null;
    return () => {
      if (this.#tools.get(tool.name) !== stored) return;
      this.#tools.delete(tool.name);
      this.#sorted = null;
    };
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  /** Every registered tool, sorted by name. */
  list(): ToolDefinition[] {
    return [...this.#sortedTools()];
  }

  #sortedTools(): readonly ToolDefinition[] {
    this.#sorted ??= [...this.#tools.values()].sort((a, b) => a.name.localeCompare(b.name));
    return this.#sorted;
  }

  /** The tools the model may see now: toolset enabled (enablesTool), required env present, checkFn true. */
  async available(options: AvailabilityOptions): Promise<ToolDefinition[]> {
    const out: ToolDefinition[] = [];
    for (const tool of this.#sortedTools()) {
      if (!enablesTool(options.toolsets, tool)) continue;
      if (options.exclude?.includes(tool.name)) continue;
      const missing = tool.requiresEnv === undefined ? [] : tool.requiresEnv.filter((k) => !options.env[k]);
      if (missing.length > 0) {
        this.#logger.debug({ tool: tool.name, missing }, `tool ${tool.name} hidden: missing ${missing.join(', ')}`);
        continue;
      }
      if (tool.checkFn) {
        try {
          if (!(await tool.checkFn())) continue;
        } catch (err) {
          this.#logger.warn({ tool: tool.name, err }, `tool ${tool.name} checkFn failed; tool hidden`);
          continue;
        }
      }
      out.push(tool);
    }
    return out;
  }
}
