/** What the MCP client needs to know of one server (the app maps `mcp_servers:` of config.yaml to it). */

export type McpTransportSettings =
  | {
      kind: 'stdio';
      command: string;
      args: readonly string[];
      /** added to the SDK's safe default environment (PATH, HOME, ...): the daemon's secrets are not inherited */
      env: Readonly<Record<string, string>>;
      cwd?: string;
    }
  | { kind: 'http'; url: string; headers: Readonly<Record<string, string>> };

export interface McpServerSettings {
  /** the key under mcp_servers */
  name: string;
  enabled: boolean;
  transport: McpTransportSettings;
  /** one call's limit */
  timeoutMs: number;
  /** start + initialize + tools/list */
  connectTimeoutMs: number;
  /** MCP tool names to keep (absent: all) */
  include?: readonly string[];
  /** MCP tool names never registered */
  exclude: readonly string[];
  /** a configuration problem found before connecting (e.g. an unset ${VAR}): the server is `failed` */
  problem?: string;
}

export type McpServerState = 'disabled' | 'connecting' | 'connected' | 'disconnected' | 'failed';

/** One MCP tool as the model sees it. */
export interface McpToolName {
  /** the server's name for it */
  mcp: string;
  /** mcp_<server>_<tool>, sanitized */
  model: string;
}

export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: McpServerState;
  /** the registered tools */
  tools: McpToolName[];
  /** tools left out: filtered, or a name another tool holds */
  skipped: { mcp: string; reason: string }[];
  /** why the server is failed or disconnected */
  error?: string;
}

/** Reconnect delays: initialMs, doubled per failed attempt, at most maxMs. */
export interface McpBackoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_MCP_BACKOFF: McpBackoff = { initialMs: 1000, maxMs: 60_000 };
