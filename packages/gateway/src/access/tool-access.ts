/** The tools each access tier gets: its toolsets (or tool names; `*` all), minus its excluded tools. */
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import type { AccessSettings } from './access-settings.js';

/** The turn service's `toolAccess`: filters a turn's tools by its user's tier. */
export function tierToolAccess(
  settings: Pick<AccessSettings, 'tiers'>,
): (tools: readonly ToolDefinition[], user: NonNullable<ToolContext['user']>) => ToolDefinition[] {
  return (tools, user) => {
    const tier = settings.tiers[user.tier];
    const all = tier.toolsets.includes('*');
    return tools.filter(
      (t) =>
        !tier.excludeTools.includes(t.name) &&
        (all || tier.toolsets.includes(t.toolset) || tier.toolsets.includes(t.name)),
    );
  };
}
