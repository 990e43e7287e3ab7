#!/usr/bin/env node
// The fake MCP server over stdio: `node test/fakes/mcp/server.mjs`. Writes one line to stderr on start
// (with FAKE_MCP_STDERR if set, so tests can check stderr reaches the log, redacted).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFakeMcpServer } from './tools.mjs';

if (process.env.FAKE_MCP_START_DELAY_MS) {
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.FAKE_MCP_START_DELAY_MS)));
}
// like most stdio servers, exit when the client closes stdin (FAKE_MCP_IGNORE_STDIN_CLOSE: a stuck server
// that the client must kill)
if (!process.env.FAKE_MCP_IGNORE_STDIN_CLOSE) process.stdin.on('end', () => process.exit(0));
else setInterval(() => {}, 1 << 30);
const server = createFakeMcpServer({ crash: () => setImmediate(() => process.exit(3)) });
await server.connect(new StdioServerTransport());
process.stderr.write(`fake mcp server started (pid ${process.pid}) ${process.env.FAKE_MCP_STDERR ?? ''}\n`);
