/**
 * The MCP servers of `mcp_servers:`: one connection each, started in the background; each server's
 * tools registered in the ToolRegistry as ordinary ToolDefinitions (`mcp_<server>_<tool>`, toolset
 * `mcp-<server>`), so the tool executor runs them with the same hooks, timeout and signal as
 * built-in tools. An MCP `isError` result is thrown, so the model sees a tool error.
 */
import type { Logger, ToolDefinition } from '@hermes/protocol';
import type { ToolRegistry } from '../tool-registry.js';
import { McpConnection, type McpTool } from './connection.js';
import { mcpResultText } from './result-text.js';
import { filteredOut, mcpToolName } from './tool-names.js';
import type { McpBackoff, McpServerSettings, McpServerStatus, McpToolName } from './types.js';

export interface McpManagerOptions {
  servers: readonly McpServerSettings[];
  /** where the tools go; null: connect and list only (`hermes mcp list|test`) */
  tools: ToolRegistry | null;
  logger: Logger;
  redact: (text: string) => string;
  clientVersion?: string;
  backoff?: McpBackoff;
}

/** What `reconcile` changed, by server name. */
export interface McpReconcileResult {
  added: string[];
  removed: string[];
  /** settings changed: closed and connected again */
  restarted: string[];
}

/** Same settings, compared as data (the order of object keys aside). */
function sameSettings(a: McpServerSettings, b: McpServerSettings): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface ServerEntry {
  settings: McpServerSettings;
  connection: McpConnection;
  registered: Map<string, { mcp: string; unregister: () => void }>;
  skipped: { mcp: string; reason: string }[];
}

export class McpManager {
  readonly #o: McpManagerOptions;
  readonly #servers: ServerEntry[] = [];

  #started = false;

  constructor(options: McpManagerOptions) {
    this.#o = options;
    for (const settings of options.servers) this.#servers.push(this.#entry(settings));
  }

  #entry(settings: McpServerSettings): ServerEntry {
    const options = this.#o;
    const entry: ServerEntry = {
      settings,
      registered: new Map(),
      skipped: [],
      connection: new McpConnection({
        settings,
        logger: options.logger,
        redact: options.redact,
        clientVersion: options.clientVersion ?? '0.1.0',
        ...(options.backoff ? { backoff: options.backoff } : {}),
        onTools: (tools) => this.#sync(entry, tools),
      }),
    };
    if (settings.problem) options.logger.error({ mcpServer: settings.name }, settings.problem);
    return entry;
  }

  /** Starts every enabled server's connection in the background (never waits, never throws). */
  start(): void {
    this.#started = true;
    for (const s of this.#servers) s.connection.start();
  }

  /**
   * Brings the servers to `servers` (a gateway reload): a server gone or whose settings changed is
   * closed and its tools unregistered; a new or changed one is added (and started when the manager
   * was). Servers whose settings are the same keep their connection. Says which names changed how.
   */
  async reconcile(servers: readonly McpServerSettings[]): Promise<McpReconcileResult> {
    const result: McpReconcileResult = { added: [], removed: [], restarted: [] };
    const next = new Map(servers.map((s) => [s.name, s]));
    const closing: ServerEntry[] = [];
    const kept: ServerEntry[] = [];
    for (const entry of this.#servers) {
      const wanted = next.get(entry.settings.name);
      if (wanted && sameSettings(wanted, entry.settings)) {
        kept.push(entry);
        next.delete(entry.settings.name);
        continue;
      }
      closing.push(entry);
      (wanted ? result.restarted : result.removed).push(entry.settings.name);
    }
    await Promise.all(
      closing.map(async (entry) => {
        await entry.connection.close();
        for (const known of entry.registered.values()) known.unregister();
        entry.registered.clear();
      }),
    );
    const added = [...next.values()].map((settings) => this.#entry(settings));
    for (const entry of added)
      if (!result.restarted.includes(entry.settings.name)) result.added.push(entry.settings.name);
    this.#servers.splice(0, this.#servers.length, ...kept, ...added);
    if (this.#started) for (const entry of added) entry.connection.start();
    return result;
  }

  /** Resolves once every server's first connection attempt has ended (each bounded by its connect timeout). */
  async ready(): Promise<void> {
    await Promise.all(this.#servers.map((s) => s.connection.firstAttempt));
  }

  status(): McpServerStatus[] {
    return this.#servers.map(({ settings, connection, registered, skipped }) => ({
      name: settings.name,
      transport: settings.transport.kind,
      state: connection.state,
      tools: [...registered].map(([model, { mcp }]): McpToolName => ({ mcp, model })),
      skipped: [...skipped],
      ...(connection.error ? { error: connection.error } : {}),
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.#servers.map((s) => s.connection.close()));
  }

  /** Registers the server's tools after a connect: new ones added, vanished ones removed, filters applied. */
  #sync(entry: ServerEntry, tools: McpTool[]): void {
    const { settings } = entry;
    const registry = this.#o.tools;
    const wanted = new Map<string, McpTool>();
    entry.skipped = [];
    for (const tool of tools) {
      const reason = filteredOut(tool.name, settings);
      if (reason) {
        entry.skipped.push({ mcp: tool.name, reason });
        continue;
      }
      const model = mcpToolName(settings.name, tool.name);
      const twin = wanted.get(model);
      if (twin) {
        entry.skipped.push({ mcp: tool.name, reason: `its name ${model} is taken by ${twin.name}` });
        continue;
      }
      wanted.set(model, tool);
    }
    for (const [model, known] of entry.registered) {
      known.unregister();
      entry.registered.delete(model);
    }
    for (const [model, tool] of wanted) {
      if (!registry) {
        entry.registered.set(model, { mcp: tool.name, unregister: () => {} });
        continue;
      }
      try {
        const unregister = registry.register(this.#definition(entry, model, tool));
        entry.registered.set(model, { mcp: tool.name, unregister });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        entry.skipped.push({ mcp: tool.name, reason });
        this.#o.logger.warn(
          { mcpServer: settings.name, tool: model },
          `MCP tool ${tool.name} of ${settings.name} not registered: ${reason}`,
        );
      }
    }
    for (const s of entry.skipped) {
      if (s.reason.startsWith('its name')) {
        this.#o.logger.warn({ mcpServer: settings.name }, `MCP tool ${s.mcp} of ${settings.name} skipped: ${s.reason}`);
      }
    }
  }

  #definition(entry: ServerEntry, model: string, tool: McpTool): ToolDefinition {
    const server = entry.settings.name;
    const description = tool.description ?? `${tool.name} (MCP server ${server})`;
    return {
      name: model,
      toolset: `mcp-${server}`,
      owner: `mcp:${server}`,
      description,
      schema: { name: model, description, parameters: { type: 'object', ...tool.inputSchema } },
      handler: async (args, context) => {
        const result = await entry.connection.call(tool.name, args, context.signal);
        const text = mcpResultText(result);
        if (result.isError === true) throw new Error(`MCP tool ${tool.name} of ${server} reported an error: ${text}`);
        return text;
      },
    };
  }
}
