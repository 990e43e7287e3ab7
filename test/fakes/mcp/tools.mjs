// The fake MCP server's tools, written with the official SDK (McpServer.registerTool); shared by the stdio
// script (server.mjs) and the streamable HTTP server (http-server.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/** A 1x1 transparent PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * A fresh McpServer with the test tools. `crash` is what "the process dies" means for the transport:
 * the stdio script exits, the HTTP server closes its listener.
 */
export function createFakeMcpServer({ crash, name = 'fake-mcp' }) {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes the text back', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool(
    'slow',
    { description: 'Answers after ms milliseconds', inputSchema: { ms: z.number() } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
    },
  );
  server.registerTool(
    'crash',
    { description: 'Kills the server in the middle of the call', inputSchema: {} },
    async () => {
      crash();
      // never answered: the process (or the listener) is gone
      return new Promise(() => {});
    },
  );
  server.registerTool(
    'fail',
    { description: 'Answers with isError', inputSchema: { reason: z.string() } },
    async ({ reason }) => ({ isError: true, content: [{ type: 'text', text: `failed: ${reason}` }] }),
  );
  server.registerTool(
    'picture',
    { description: 'Answers with an image and a resource', inputSchema: {} },
    async () => ({
      content: [
        { type: 'text', text: 'a picture' },
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'note body' } },
      ],
    }),
  );
  server.registerTool(
    'env',
    { description: 'The value of an environment variable of the server process', inputSchema: { name: z.string() } },
    async ({ name: key }) => ({ content: [{ type: 'text', text: process.env[key] ?? '(unset)' }] }),
  );
  server.registerTool('pid', { description: "The server process's id", inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: String(process.pid) }],
  }));
  server.registerTool(
    'get.weather',
    { description: 'A name with a dot (sanitized by the client)', inputSchema: { city: z.string() } },
    async ({ city }) => ({ content: [{ type: 'text', text: `sunny in ${city}` }] }),
  );
  server.registerTool(
    'grow',
    { description: 'Adds the tool "extra" (the server sends notifications/tools/list_changed)', inputSchema: {} },
    async () => {
      server.registerTool('extra', { description: 'Added at run time', inputSchema: {} }, async () => ({
        content: [{ type: 'text', text: 'extra here' }],
      }));
      return { content: [{ type: 'text', text: 'grown' }] };
    },
  );
  return server;
}
