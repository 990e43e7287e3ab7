// McpManager.reconcile (a gateway reload): a server gone is closed and its tools unregistered, a new
// one connects and registers, a changed one is connected again, an unchanged one keeps its connection.
import { silentLogger } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { McpManager } from '../../src/mcp/manager.js';
import { ToolRegistry } from '../../src/tool-registry.js';
import { stdioServer } from './fake-server.js';

const open: McpManager[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

const names = (registry: ToolRegistry, server: string) =>
  registry
    .list()
    .map((t) => t.name)
    .filter((n) => n.startsWith(`mcp_${server}_`));

describe('McpManager.reconcile', () => {
  it('stops removed servers, starts added ones, restarts changed ones and keeps the rest', async () => {
    const registry = new ToolRegistry();
    const manager = new McpManager({
      servers: [stdioServer('keep'), stdioServer('drop'), stdioServer('change')],
      tools: registry,
      logger: silentLogger,
      redact: (t) => t,
    });
    open.push(manager);
    manager.start();
    await manager.ready();
    expect(names(registry, 'drop')).toContain('mcp_drop_add');
    const kept = registry.get('mcp_keep_add');

    const result = await manager.reconcile([
      stdioServer('keep'),
      stdioServer('change', { exclude: ['add'] }),
      stdioServer('fresh'),
    ]);
    expect(result).toEqual({ added: ['fresh'], removed: ['drop'], restarted: ['change'] });
    expect(names(registry, 'drop')).toEqual([]);
    // unchanged: the same registration, not connected again
    expect(registry.get('mcp_keep_add')).toBe(kept);
    await waitFor(() => names(registry, 'fresh').includes('mcp_fresh_add'));
    await waitFor(() => names(registry, 'change').length > 0 && !names(registry, 'change').includes('mcp_change_add'));
    expect(manager.status().map((s) => s.name)).toEqual(['keep', 'change', 'fresh']);
  });
});
