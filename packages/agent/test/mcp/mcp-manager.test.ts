// The MCP client against the real fake server (test/fakes/mcp, written with the same SDK): tools registered
// as mcp_<server>_<tool> in toolset mcp-<server>, filters, sanitized names, results as text, isError as a
// tool error, per-call timeout, a dead server reconnected on the next call, stdio children killed on close.
import { silentLogger, type ToolContext } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMcpHttp, startFakeMcpHttp } from '../../../../test/fakes/mcp/http-server.js';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { McpManager } from '../../src/mcp/manager.js';
import type { McpServerSettings } from '../../src/mcp/types.js';
import { ToolRegistry } from '../../src/tool-registry.js';
import { httpServer, stdioServer, stdioServerWithEnv } from './fake-server.js';

const open: McpManager[] = [];
const https: FakeMcpHttp[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
  await Promise.all(https.splice(0).map((h) => h.close()));
});

function context(signal = new AbortController().signal): ToolContext {
  return {
    sessionId: 's',
    taskId: 't',
    toolCallId: 'c',
    platform: 'cli',
    cwd: process.cwd(),
    signal,
    logger: silentLogger,
    hooks: { invoke: async () => undefined } as unknown as ToolContext['hooks'],
    requestApproval: async () => 'deny',
  };
}

async function started(servers: McpServerSettings[], registry = new ToolRegistry()) {
  const manager = new McpManager({
    servers,
    tools: registry,
    logger: silentLogger,
    redact: (t) => t,
    backoff: { initialMs: 50, maxMs: 200 },
  });
  open.push(manager);
  manager.start();
  await manager.ready();
  return { manager, registry };
}

async function call(registry: ToolRegistry, name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.handler(args, context(signal));
}

describe('McpManager over stdio', () => {
  it('registers every tool as mcp_<server>_<tool> in toolset mcp-<server>, with the input schema', async () => {
    const { manager, registry } = await started([stdioServer('fake')]);
    const names = registry.list().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp_fake_echo', 'mcp_fake_add', 'mcp_fake_slow', 'mcp_fake_get_weather']),
    );
    const add = registry.get('mcp_fake_add');
    expect(add?.toolset).toBe('mcp-fake');
    expect(add?.schema.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(await registry.available({ env: {}, toolsets: ['mcp-fake'] })).toHaveLength(names.length);
    expect(manager.status()[0]).toMatchObject({ name: 'fake', transport: 'stdio', state: 'connected' });
    expect(manager.status()[0]?.tools).toContainEqual({ mcp: 'get.weather', model: 'mcp_fake_get_weather' });
  });

  it('maps results to text; isError becomes a thrown tool error; images and resources are described', async () => {
    const { registry } = await started([stdioServer('fake')]);
    expect(await call(registry, 'mcp_fake_add', { a: 2, b: 40 })).toBe('42');
    expect(await call(registry, 'mcp_fake_get_weather', { city: 'Oslo' })).toBe('sunny in Oslo');
    await expect(call(registry, 'mcp_fake_fail', { reason: 'no disk' })).rejects.toThrow(
      'MCP tool fail of fake reported an error: failed: no disk',
    );
    const picture = await call(registry, 'mcp_fake_picture');
    expect(picture).toContain('a picture');
    expect(picture).toMatch(/\[image: image\/png, \d+ bytes, not shown\]/);
    expect(picture).toContain('[resource file:///notes.txt (text/plain)]\nnote body');
  });

  it('applies tools.include and tools.exclude', async () => {
    const { manager, registry } = await started([
      stdioServer('a', { include: ['echo', 'add'] }),
      stdioServer('b', { exclude: ['crash', 'slow'] }),
    ]);
    const names = registry.list().map((t) => t.name);
    expect(names.filter((n) => n.startsWith('mcp_a_'))).toEqual(['mcp_a_add', 'mcp_a_echo']);
    expect(names).toContain('mcp_b_echo');
    expect(names).not.toContain('mcp_b_crash');
    expect(names).not.toContain('mcp_b_slow');
    expect(manager.status()[1]?.skipped).toContainEqual({ mcp: 'crash', reason: 'in tools.exclude' });
  });

  it('reports a name another tool already holds instead of failing the server', async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: 'mcp_fake_echo',
      toolset: 'other',
      schema: { name: 'mcp_fake_echo', description: '', parameters: {} },
      handler: () => 'mine',
    });
    const { manager } = await started([stdioServer('fake')], registry);
    const status = manager.status()[0];
    expect(status?.state).toBe('connected');
    expect(status?.skipped.find((s) => s.mcp === 'echo')?.reason).toContain('already registered');
    expect(await call(registry, 'mcp_fake_echo')).toBe('mine');
    expect(await call(registry, 'mcp_fake_add', { a: 1, b: 1 })).toBe('2');
  });

  it('gives up a call after timeout_s with an error naming the server', async () => {
    const { registry } = await started([stdioServer('fake', { timeoutMs: 300 })]);
    await expect(call(registry, 'mcp_fake_slow', { ms: 5000 })).rejects.toThrow(
      'MCP server "fake" did not answer slow within 0.3 s',
    );
    expect(await call(registry, 'mcp_fake_echo', { text: 'still here' })).toBe('echo: still here');
  });

  it("stops a call when the turn's signal aborts", async () => {
    const { registry } = await started([stdioServer('fake')]);
    const controller = new AbortController();
    const pending = call(registry, 'mcp_fake_slow', { ms: 5000 }, controller.signal);
    setTimeout(() => controller.abort(new Error('interrupted')), 50);
    await expect(pending).rejects.toThrow();
    expect(await call(registry, 'mcp_fake_echo', { text: 'x' })).toBe('echo: x');
  });

  it('a server killed mid-call gives a clear error and the next call reconnects to a new process', async () => {
    const { manager, registry } = await started([stdioServer('fake', { connectTimeoutMs: 5000 })]);
    const firstPid = await call(registry, 'mcp_fake_pid');
    await expect(call(registry, 'mcp_fake_crash')).rejects.toThrow(
      /MCP server "fake" went away during the call to crash .*the next call reconnects/,
    );
    expect(await call(registry, 'mcp_fake_echo', { text: 'back' })).toBe('echo: back');
    expect(await call(registry, 'mcp_fake_pid')).not.toBe(firstPid);
    expect(manager.status()[0]?.state).toBe('connected');
  });

  it('a server that never starts fails with its reason; the others connect', async () => {
    const missing = stdioServer('gone', {
      transport: { kind: 'stdio', command: '/nonexistent/mcp-server', args: [], env: {} },
    });
    const { manager } = await started([missing, stdioServer('fake')]);
    const [gone, fake] = manager.status();
    expect(gone).toMatchObject({ state: 'failed' });
    expect(gone?.error).toMatch(/ENOENT/);
    expect(fake?.state).toBe('connected');
  });

  it('a server slower than connect_timeout_s fails without holding up start()', async () => {
    const slow = stdioServerWithEnv('slow', { FAKE_MCP_START_DELAY_MS: '5000' }, { connectTimeoutMs: 300 });
    const { manager } = await started([slow]);
    expect(manager.status()[0]).toMatchObject({ state: 'failed', error: 'did not connect within 0.3 s' });
  });

  it('passes env to the child (and not the parent environment)', async () => {
    process.env.HERMES_TEST_PARENT_SECRET = 'parent-only';
    try {
      const { registry } = await started([stdioServerWithEnv('fake', { GREETING: 'hi there' })]);
      expect(await call(registry, 'mcp_fake_env', { name: 'GREETING' })).toBe('hi there');
      expect(await call(registry, 'mcp_fake_env', { name: 'HERMES_TEST_PARENT_SECRET' })).toBe('(unset)');
    } finally {
      delete process.env.HERMES_TEST_PARENT_SECRET;
    }
  });

  it('close() kills a stdio child, even one that ignores its stdin closing (no orphans)', async () => {
    const { manager, registry } = await started([
      stdioServerWithEnv('stuck', { FAKE_MCP_IGNORE_STDIN_CLOSE: '1' }),
      stdioServer('fake'),
    ]);
    const pids = [Number(await call(registry, 'mcp_stuck_pid')), Number(await call(registry, 'mcp_fake_pid'))];
    void call(registry, 'mcp_stuck_slow', { ms: 60_000 }).catch(() => {});
    await manager.close();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('registers tools the server adds later (notifications/tools/list_changed)', async () => {
    const { registry } = await started([stdioServer('fake')]);
    expect(registry.get('mcp_fake_extra')).toBeUndefined();
    expect(await call(registry, 'mcp_fake_grow')).toBe('grown');
    await waitFor(() => registry.get('mcp_fake_extra'), { what: 'the added tool registered' });
    expect(await call(registry, 'mcp_fake_extra')).toBe('extra here');
    expect(await call(registry, 'mcp_fake_echo', { text: 'kept' })).toBe('echo: kept');
  });

  it('leaves a disabled server unconnected', async () => {
    const { manager, registry } = await started([stdioServer('off', { enabled: false })]);
    expect(manager.status()[0]?.state).toBe('disabled');
    expect(registry.list()).toEqual([]);
  });
});

describe('McpManager over streamable HTTP', () => {
  it('sends the headers, calls tools, and reconnects after the server comes back', async () => {
    const http = await startFakeMcpHttp({ token: 'tok-123456' });
    https.push(http);
    const { manager, registry } = await started([httpServer('web', http.url, { Authorization: 'Bearer tok-123456' })]);
    expect(manager.status()[0]).toMatchObject({ transport: 'http', state: 'connected' });
    expect(await call(registry, 'mcp_web_add', { a: 3, b: 4 })).toBe('7');
    expect(http.authHeaders.every((h) => h === 'Bearer tok-123456')).toBe(true);
    http.crash();
    await expect(call(registry, 'mcp_web_echo', { text: 'x' })).rejects.toThrow(
      /MCP server "web" went away during the call to echo/,
    );
    // still down: the call tries one reconnect, then says so
    await expect(call(registry, 'mcp_web_echo', { text: 'x' })).rejects.toThrow(
      /MCP server "web" is not connected and one reconnect failed: .*fetch failed/,
    );
    await http.restart();
    expect(await call(registry, 'mcp_web_echo', { text: 'again' })).toBe('echo: again');
  });

  it('a wrong token fails the server with the HTTP reason', async () => {
    const http = await startFakeMcpHttp({ token: 'tok-123456' });
    https.push(http);
    const { manager } = await started([httpServer('web', http.url, { Authorization: 'Bearer wrong' })]);
    expect(manager.status()[0]?.state).toBe('failed');
    expect(manager.status()[0]?.error).toMatch(/HTTP 401/);
  });
});
