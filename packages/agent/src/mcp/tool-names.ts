/** The model's name for an MCP tool (`mcp_<server>_<tool>`, tool-name charset, ≤ 64) and the include/exclude filter. */
import { createHash } from 'node:crypto';
import type { McpServerSettings } from './types.js';

const MAX = 64;

/** `mcp_<server>_<tool>` with every character outside [A-Za-z0-9_-] made `_`; a name past 64 is cut and keeps a hash. */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp_${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MAX) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX - 9)}_${hash}`;
}

/** Why the server's settings leave `tool` out, or null when it is kept. */
export function filteredOut(tool: string, settings: Pick<McpServerSettings, 'include' | 'exclude'>): string | null {
  if (settings.include && !settings.include.includes(tool)) return 'not in tools.include';
  if (settings.exclude.includes(tool)) return 'in tools.exclude';
  return null;
}
