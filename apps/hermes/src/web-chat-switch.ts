/**
 * Whether the web chat (the bundled `web` platform) runs: with the console (`gateway.console.enabled`,
 * default on when the gateway listens on loopback), unless `gateway.platforms.web.enabled` says
 * otherwise. Applied to the platform settings the gateway hands its adapters.
 */
import { isLoopbackHost } from '@hermes/protocol';

type PlatformSettings = Readonly<Record<string, Readonly<Record<string, unknown>> & { enabled?: boolean | undefined }>>;

export function withWebChatSwitch(
  platforms: PlatformSettings,
  consoleEnabled: boolean | undefined,
  host: string,
): PlatformSettings {
  const web = platforms.web ?? {};
  if (web.enabled !== undefined) return platforms;
  return { ...platforms, web: { ...web, enabled: consoleEnabled ?? isLoopbackHost(host) } };
}
