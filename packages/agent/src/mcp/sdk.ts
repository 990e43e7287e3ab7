/**
 * The MCP SDK, loaded on first use: it brings ajv and zod schemas with it, which no command without
 * an MCP server should pay for at start-up (apps/hermes/test/lazy-modules.test.ts).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport, StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export interface TrackedStdio {
  /** the child's pid, kept after the SDK's close() forgets it */
  childPid: number | null;
}

export interface McpSdk {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  ErrorCode: typeof ErrorCode;
  McpError: typeof McpError;
  stdioTransport(params: StdioServerParameters): StdioClientTransport & TrackedStdio;
}

async function load(): Promise<McpSdk> {
  const [client, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  /** The SDK's stdio transport, remembering its child's pid. */
  class TrackedStdioTransport extends stdio.StdioClientTransport implements TrackedStdio {
    childPid: number | null = null;
    override async start(): Promise<void> {
      await super.start();
      this.childPid = this.pid;
    }
  }
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ErrorCode: types.ErrorCode,
    McpError: types.McpError,
    stdioTransport: (params: StdioServerParameters) => new TrackedStdioTransport(params),
  };
}

let loaded: Promise<McpSdk> | null = null;

export function mcpSdk(): Promise<McpSdk> {
  loaded ??= load();
  return loaded;
}
