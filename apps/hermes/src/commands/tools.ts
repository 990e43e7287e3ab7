/**
 * `hermes tools list|enable|disable`: the toolsets the agent is offered, and where. `agent.toolsets`
 * selects them for every surface; `gateway.platforms.<name>.toolsets` narrows one platform's turns
 * within that (a small local model on one bot, no terminal on another). Enabling and disabling
 * edit config.yaml as `hermes config set` does (comments kept, validated, written atomically).
 */
import { type HermesConfig, setConfigValue } from '@hermes/config';
import { EXIT, enablesTool, selectsTool, type ToolDefinition } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { createAgentRuntime } from '../runtime.js';

interface ToolsetRow {
  toolset: string;
  tools: string[];
  /** offered by agent.toolsets */
  offered: boolean;
  /** per platform with its own toolsets: offered there */
  platforms: Record<string, boolean>;
}

/** The platforms of config.yaml that narrow their toolsets. */
function platformSelections(config: HermesConfig): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  for (const [name, block] of Object.entries(config.gateway.platforms)) if (block.toolsets) out[name] = block.toolsets;
  return out;
}

function rows(tools: readonly ToolDefinition[], config: HermesConfig): ToolsetRow[] {
  const byToolset = new Map<string, ToolDefinition[]>();
  for (const t of tools) byToolset.set(t.toolset, [...(byToolset.get(t.toolset) ?? []), t]);
  const platforms = platformSelections(config);
  return [...byToolset.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([toolset, members]) => {
      const offered = members.some((t) => enablesTool(config.agent.toolsets, t));
      return {
        toolset,
        tools: members.map((t) => t.name).sort(),
        offered,
        platforms: Object.fromEntries(
          Object.entries(platforms).map(([name, selection]) => [
            name,
            offered && members.some((t) => selectsTool(selection, t)),
          ]),
        ),
      };
    });
}

/** The registry's tools (built-in and plugins'; MCP servers' join once connected, so they are not listed). */
async function withTools<T>(
  options: GlobalOptions,
  fn: (tools: readonly ToolDefinition[], config: HermesConfig, home: string) => T,
): Promise<T> {
  // the listing needs the registry, not the MCP servers' processes
  const rt = await createAgentRuntime(options, { startMcp: false });
  try {
    return fn(
      rt.tools.list().filter((t) => !(t.owner ?? '').startsWith('mcp:')),
      rt.config,
      rt.home,
    );
  } finally {
    await rt.close();
  }
}

/** `hermes tools list [--platform P] [--json]` */
export async function toolsList(options: GlobalOptions, opts: { platform?: string; json?: boolean }): Promise<void> {
  const table = await withTools(options, (tools, config) => rows(tools, config));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(table, null, 2)}\n`);
    return;
  }
  const width = Math.max(...table.map((r) => r.toolset.length), 7);
  for (const r of table) {
    const here =
      opts.platform === undefined
        ? [r.offered ? 'on' : 'off', ...Object.entries(r.platforms).map(([p, on]) => `${p} ${on ? 'on' : 'off'}`)]
        : [`${opts.platform} ${(r.platforms[opts.platform] ?? r.offered) ? 'on' : 'off'}`];
    process.stdout.write(`${r.toolset.padEnd(width)}  ${here.join(', ').padEnd(14)}  ${r.tools.join(', ')}\n`);
  }
}

/** `hermes tools enable|disable TOOLSET [--platform P]` */
export async function toolsToggle(
  options: GlobalOptions,
  toolset: string,
  enable: boolean,
  opts: { platform?: string },
): Promise<void> {
  const { key, next, home } = await withTools(options, (tools, config, home) => {
    const known = [...new Set(tools.map((t) => t.toolset))].sort();
    // toolsets `*` does not enable (browser): named on their own beside it
    const optIn = new Set(tools.filter((t) => t.optIn === true).map((t) => t.toolset));
    if (!known.includes(toolset) && !tools.some((t) => t.name === toolset)) {
      throw new CliExit(
        EXIT.USAGE,
        `no toolset or tool "${toolset}" (hermes tools list shows them: ${known.join(', ')})`,
      );
    }
    const platform = opts.platform;
    const current =
      platform === undefined ? config.agent.toolsets : (config.gateway.platforms[platform]?.toolsets ?? ['*']);
    const key = platform === undefined ? 'agent.toolsets' : `gateway.platforms.${platform}.toolsets`;
    const star = current.includes('*');
    // in agent.toolsets an opt-in toolset (browser) is named beside `*`, which leaves it out
    const optInHere = (t: string) => platform === undefined && optIn.has(t);
    if (star && optInHere(toolset)) {
      const rest = current.filter((t) => t !== toolset);
      return { key, next: enable ? [...rest, toolset] : rest, home };
    }
    // `*` stands for every toolset: disabling one lists the others
    const expanded = star
      ? [...new Set([...known.filter((t) => !optInHere(t)), ...current.filter((t) => t !== '*')])]
      : [...current];
    const list = enable ? [...new Set([...expanded, toolset])] : expanded.filter((t) => t !== toolset);
    const all = known.every((t) => optInHere(t) || list.includes(t));
    return { key, next: all && star ? ['*', ...list.filter(optInHere)] : list, home };
  });
  setConfigValue({ home, key, value: JSON.stringify(next) });
  process.stdout.write(`${key} = ${JSON.stringify(next)}\n`);
}
