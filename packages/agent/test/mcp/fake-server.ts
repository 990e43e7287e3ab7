// Settings for the fake MCP server of test/fakes/mcp (stdio script and streamable HTTP).
import { fileURLToPath } from 'node:url';
import type { McpServerSettings } from '../../src/mcp/types.js';

export const FAKE_MCP_SCRIPT = fileURLToPath(new URL('../../../../test/fakes/mcp/server.mjs', import.meta.url));

export function stdioServer(name: string, extra: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    name,
    enabled: true,
    transport: { kind: 'stdio', command: process.execPath, args: [FAKE_MCP_SCRIPT], env: {} },
    timeoutMs: 10_000,
    connectTimeoutMs: 10_000,
    exclude: [],
    ...extra,
  };
}

/** The stdio server with extra env for the child. */
export function stdioServerWithEnv(
  name: string,
  env: Record<string, string>,
  extra: Partial<McpServerSettings> = {},
): McpServerSettings {
  return stdioServer(name, {
    transport: { kind: 'stdio', command: process.execPath, args: [FAKE_MCP_SCRIPT], env },
    ...extra,
  });
}

export function httpServer(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  extra: Partial<McpServerSettings> = {},
): McpServerSettings {
  return {
    name,
    enabled: true,
    transport: { kind: 'http', url, headers },
    timeoutMs: 10_000,
    connectTimeoutMs: 10_000,
    exclude: [],
    ...extra,
  };
}
