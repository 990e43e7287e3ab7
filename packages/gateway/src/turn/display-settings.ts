/**
 * display.* per platform: `gateway.platforms.<name>.streaming` and `.runtime_metadata_footer`
 * (booleans) override `display.streaming` and `display.runtime_metadata_footer`.
 */
import { EditCadence } from '../delivery/live-stream.js';
import { streamIds } from '../delivery/stream-ids.js';
import type { GatewaySettings } from '../runner/gateway-deps.js';
import type { GatewayStore } from '../store/gateway-store.js';
import type { ChatReplyPorts } from './chat-reply.js';
import { DISPLAY_DEFAULTS, type DisplaySettings } from './turn-display.js';

/** Resolves the display settings of every platform once; unknown platforms get the global ones. */
export function displayResolver(settings: GatewaySettings): (platform: string) => DisplaySettings {
  const global = settings.display ?? DISPLAY_DEFAULTS;
  const perPlatform = new Map<string, DisplaySettings>();
  for (const [name, block] of Object.entries(settings.platformSettings)) {
    const { streaming, runtime_metadata_footer: footer } = block;
    if (typeof streaming !== 'boolean' && typeof footer !== 'boolean') continue;
    perPlatform.set(name, {
      ...global,
      ...(typeof streaming === 'boolean' ? { streaming } : {}),
      ...(typeof footer === 'boolean' ? { runtimeFooter: footer } : {}),
    });
  }
  return (platform) => perPlatform.get(platform) ?? global;
}

/** A chat reply's ports for display and streamed answers. */
export function streamingPorts(
  settings: GatewaySettings,
  store: Pick<GatewayStore, 'platformState' | 'commit'>,
): Pick<ChatReplyPorts, 'display' | 'streamIds' | 'cadence' | 'commit'> {
  const ids = streamIds((platform, key) => store.platformState.get(platform, key));
  return { display: displayResolver(settings), streamIds: ids, cadence: new EditCadence(), commit: store.commit };
}
