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

interface ServerEntry {
  settings: McpServerSettings;
  connection: McpConnection;
  registered: Map<string, { mcp: string; unregister: () => void }>;
  skipped: { mcp: string; reason: string }[];
}

export class McpManager {
  readonly #o: McpManagerOptions;
  readonly #servers: ServerEntry[] = [];

  constructor(options: McpManagerOptions) {
    this.#o = options;
    for (const settings of options.servers) {
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
      this.#servers.push(entry);
      if (settings.problem) options.logger.error({ mcpServer: settings.name }, settings.problem);
    }
  }

  /** Starts every enabled server's connection in the background (never waits, never throws). */
  start(): void {
    for (const s of this.#servers) s.connection.start();
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
