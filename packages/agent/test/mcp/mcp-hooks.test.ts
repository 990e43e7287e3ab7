// MCP tools are ordinary ToolDefinitions run by the tool executor: a turn whose model calls an MCP tool fires
// pre_tool_call (which can block it), post_tool_call and transform_tool_result exactly as for built-in tools,
// and the model reads the (transformed) result; an MCP isError result reaches the model as a tool error.
import type { ChatMessage } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import { McpManager } from '../../src/mcp/manager.js';
import { ToolRegistry } from '../../src/tool-registry.js';
import { client, recordAll, recordingBus, turn } from '../helpers.js';
import { stdioServer } from './fake-server.js';

const openai = useFakeOpenAI();
const registry = new ToolRegistry();
const manager = new McpManager({
  servers: [stdioServer('fake')],
  tools: registry,
  logger: silentLogger,
  redact: (t) => t,
});

beforeAll(async () => {
  manager.start();
  await manager.ready();
});
afterAll(() => manager.close());

const toolMessageOf = (i: number) => {
  const requests = openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
  return (requests[i]?.body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'tool');
};

async function mcpTools() {
  return registry.available({ env: {}, toolsets: ['mcp-fake'] });
}

describe('MCP tools and the tool hooks', () => {
  it('fire pre_tool_call, post_tool_call and transform_tool_result; the model reads the transformed result', async () => {
    const { bus, calls } = recordingBus();
    recordAll(bus, calls, ['pre_tool_call', 'post_tool_call', 'transform_tool_result']);
    bus.register(
      'transform_tool_result',
      (p) => (p.toolName === 'mcp_fake_add' ? `${p.result} (checked)` : undefined),
      {
        source: 'test',
        name: 'checker',
      },
    );
    openai.server.script({ toolCalls: [{ name: 'mcp_fake_add', arguments: { a: 20, b: 22 } }] }, { text: 'it is 42' });
    const result = await turn({ client: client(openai.server.url, bus), hooks: bus, tools: await mcpTools() });
    expect(result.finalText).toBe('it is 42');
    expect(toolMessageOf(1)).toMatchObject({ role: 'tool', content: '42 (checked)' });
    expect(calls.map((c) => c.hook)).toEqual(['pre_tool_call', 'post_tool_call', 'transform_tool_result']);
    expect(calls[0]?.payload).toMatchObject({ toolName: 'mcp_fake_add', args: { a: 20, b: 22 } });
    expect(calls[1]?.payload).toMatchObject({ toolName: 'mcp_fake_add', result: '42' });
  });

  it('pre_tool_call can block an MCP tool: the server is never called', async () => {
    const { bus } = recordingBus();
    bus.register(
      'pre_tool_call',
      (p) => (p.toolName.startsWith('mcp_') ? ({ decision: 'block', reason: 'no MCP today' } as const) : undefined),
      { source: 'test', name: 'guard' },
    );
    openai.server.script({ toolCalls: [{ name: 'mcp_fake_crash', arguments: {} }] }, { text: 'blocked' });
    await turn({ client: client(openai.server.url, bus), hooks: bus, tools: await mcpTools() });
    expect(JSON.parse(toolMessageOf(1)?.content ?? '{}')).toEqual({ error: 'no MCP today', blocked: true });
    expect(manager.status()[0]?.state).toBe('connected');
  });

  it('an MCP isError result is a tool error the model sees', async () => {
    const { bus } = recordingBus();
    openai.server.script({ toolCalls: [{ name: 'mcp_fake_fail', arguments: { reason: 'quota' } }] }, { text: 'sorry' });
    await turn({ client: client(openai.server.url, bus), hooks: bus, tools: await mcpTools() });
    expect(JSON.parse(toolMessageOf(1)?.content ?? '{}')).toEqual({
      error: 'tool mcp_fake_fail failed: MCP tool fail of fake reported an error: failed: quota',
    });
  });
});
