import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createFakeMcpServer(options: { crash: () => void; name?: string }): McpServer;
