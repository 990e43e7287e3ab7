/**
 * `mcp_servers:` of config.yaml as the agent's MCP server settings (each `${VAR}` of env and headers
 * filled from the environment, which HERMES_HOME/.env is applied to), and the runtime's McpManager:
 * its tools go in the runtime's registry, its connections start in the background.
 */
import { isAbsolute, resolve } from 'node:path';
import { McpManager, type McpServerSettings, type ToolRegistry } from '@hermes/agent';
import { expandEnvRefs, type HermesConfig } from '@hermes/config';
import type { Logger } from '@hermes/protocol';
import { VERSION } from './version.js';

type ServerConfig = HermesConfig['mcp_servers'][string];

function expandAll(
  values: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
  where: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) out[key] = expandEnvRefs(value, env, `${where}.${key}`);
  return out;
}

function transportOf(name: string, server: ServerConfig, env: NodeJS.ProcessEnv, home: string) {
  const where = `mcp_servers.${name}`;
  if (server.url !== undefined) {
    return { kind: 'http' as const, url: server.url, headers: expandAll(server.headers, env, `${where}.headers`) };
  }
  return {
    kind: 'stdio' as const,
    command: server.command ?? '',
    args: [...server.args],
    env: expandAll(server.env, env, `${where}.env`),
    // a relative cwd is taken from HERMES_HOME
    ...(server.cwd ? { cwd: isAbsolute(server.cwd) ? server.cwd : resolve(home, server.cwd) } : {}),
  };
}

/** One settings entry per configured server; an unset `${VAR}` makes the server `failed` with that reason. */
export function mcpServerSettings(config: HermesConfig, env: NodeJS.ProcessEnv, home: string): McpServerSettings[] {
  return Object.entries(config.mcp_servers).map(([name, server]) => {
    const common = {
      name,
      enabled: server.enabled,
      timeoutMs: server.timeout_s * 1000,
      connectTimeoutMs: server.connect_timeout_s * 1000,
      ...(server.tools.include ? { include: [...server.tools.include] } : {}),
      exclude: [...server.tools.exclude],
    };
    try {
      return { ...common, transport: transportOf(name, server, env, home) };
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      const transport =
        server.url !== undefined
          ? { kind: 'http' as const, url: server.url, headers: {} }
          : { kind: 'stdio' as const, command: server.command ?? '', args: [], env: {} };
      return { ...common, transport, problem };
    }
  });
}

export interface McpSetupOptions {
  config: HermesConfig;
  env: NodeJS.ProcessEnv;
  home: string;
  /** null: connect and list only (`hermes mcp list|test`) */
  tools: ToolRegistry | null;
  logger: Logger;
  redact: (text: string) => string;
}

export function createMcpManager(options: McpSetupOptions): McpManager {
  return new McpManager({
    servers: mcpServerSettings(options.config, options.env, options.home),
    tools: options.tools,
    logger: options.logger,
    redact: options.redact,
    clientVersion: VERSION,
  });
}
