/** The tools each access tier gets: its toolsets (or tool names; `*` all), minus its excluded tools. */
import { selectsTool, type ToolContext, type ToolDefinition } from '@hermes/protocol';
import type { AccessSettings } from './access-settings.js';

/** The turn service's `toolAccess`: filters a turn's tools by its user's tier. */
export function tierToolAccess(
  settings: Pick<AccessSettings, 'tiers'>,
): (tools: readonly ToolDefinition[], user: NonNullable<ToolContext['user']>) => ToolDefinition[] {
  return (tools, user) => {
    const tier = settings.tiers[user.tier];
    return tools.filter((t) => !tier.excludeTools.includes(t.name) && selectsTool(tier.toolsets, t));
  };
}
