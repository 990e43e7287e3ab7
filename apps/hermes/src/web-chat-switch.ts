/**
 * Whether the web chat (the bundled `web` platform) runs: as the console does (docs/platforms/web.md),
 * on when the gateway listens on loopback, off otherwise, unless `gateway.platforms.web.enabled`
 * says. Applied to the platform settings the gateway hands its adapters.
 */
import { isLoopbackHost } from '@hermes/protocol';

type PlatformSettings = Readonly<Record<string, Readonly<Record<string, unknown>> & { enabled?: boolean | undefined }>>;

export function withWebChatSwitch(platforms: PlatformSettings, host: string): PlatformSettings {
  const web = platforms.web ?? {};
  if (web.enabled !== undefined) return platforms;
  return { ...platforms, web: { ...web, enabled: isLoopbackHost(host) } };
}
