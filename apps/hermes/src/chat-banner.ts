/**
 * The banner `hermes chat` (and bare `hermes`) opens with: the model, then the tools the chat's
 * turns are offered (agent.toolsets applied), built-in first, each plugin's tools named by plugin.
 * MCP servers' tools join as their servers connect, so the banner counts the servers instead.
 */
import { enablesTool, type ToolDefinition } from '@hermes/protocol';

export interface BannerInput {
  model: string;
  tools: readonly ToolDefinition[];
  /** agent.toolsets: toolset or tool names, `*` for all but the opt-in tools */
  toolsets: readonly string[];
  /** MCP servers configured (and approved) */
  mcpServers: number;
}

export function chatBanner(input: BannerInput): string {
  const tools = input.tools.filter((t) => enablesTool(input.toolsets, t) && !(t.owner ?? '').startsWith('mcp:'));
  const builtin: string[] = [];
  const byPlugin = new Map<string, string[]>();
  for (const t of tools) {
    const plugin = t.owner?.startsWith('plugin:') ? t.owner.slice('plugin:'.length) : null;
    if (plugin === null) builtin.push(t.name);
    else byPlugin.set(plugin, [...(byPlugin.get(plugin) ?? []), t.name]);
  }
  const lines = [`Hermes chat · model ${input.model} · /help for commands, /exit to quit`];
  lines.push(`Tools (${tools.length}): ${builtin.join(', ') || 'none'}`);
  for (const [plugin, names] of byPlugin) lines.push(`  from plugin ${plugin}: ${names.join(', ')}`);
  if (input.mcpServers > 0) lines.push(`  and the tools of ${input.mcpServers} MCP server(s) as they connect`);
  return `${lines.join('\n')}\n`;
}
