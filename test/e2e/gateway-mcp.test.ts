// MCP in `hermes gateway run`: the gateway is healthy while an MCP server hangs on start; a chat over the API
// platform calls an MCP tool, survives the server dying mid-call (the model gets a clear tool error, the next
// call reconnects); SIGTERM leaves no MCP child behind, the hung one included.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith } from '../fakes/mcp/processes.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';

const SERVER = fileURLToPath(new URL('../fakes/mcp/server.mjs', import.meta.url));
const API_KEY = 'api-key-mcp-0123456789';

let model: FakeOpenAI;
beforeAll(async () => {
  model = await startFakeOpenAI();
});
afterAll(() => model?.close());

const toolResults = (i: number) =>
  (model.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]?.body as { messages: ChatMessage[] }).messages
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('MCP servers in the gateway', () => {
  it('healthy while a server hangs; a chat survives a server dying mid-call; no child left after SIGTERM', async () => {
    const marker = `mcp-e2e-${process.pid}-${Date.now()}`;
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      `mcp_servers:
  fake:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(SERVER)}, ${marker}]
  hung:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(SERVER)}, ${marker}]
    env:
      FAKE_MCP_START_DELAY_MS: "600000"
    connect_timeout_s: 600
`,
    );
    trustHome(home);
    const gw = await spawnGateway(
      { HERMES_HOME: home, OPENAI_BASE_URL: model.url, HERMES_INFERENCE_MODEL: 'test-model', API_SERVER_KEY: API_KEY },
      15_000,
      [],
      { platforms: false },
    );
    try {
      const health = await fetch(`${gw.url}/health`);
      expect(health.status).toBe(200);
      const log = join(home, 'logs', 'gateway.log');
      await waitFor(
        () => {
          try {
            return readFileSync(log, 'utf8').includes('MCP server fake connected');
          } catch {
            return false;
          }
        },
        { what: 'the fake MCP server to connect' },
      );
      expect(processesWith(marker)).toHaveLength(2);

      model.reset();
      model.script(
        { toolCalls: [{ name: 'mcp_fake_crash', arguments: {} }] },
        { toolCalls: [{ name: 'mcp_fake_add', arguments: { a: 1, b: 2 } }] },
        { text: 'still here' },
      );
      const res = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'crash the server' }] }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0]?.message.content).toBe('still here');
      expect(JSON.parse(toolResults(1)[0] ?? '{}').error).toContain('MCP server "fake" went away during the call');
      expect(toolResults(2)[1]).toBe('3');
      expect((await fetch(`${gw.url}/health`)).status).toBe(200);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    expect(processesWith(marker)).toEqual([]);
  });
});
