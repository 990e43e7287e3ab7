/**
 * Builds the enabled platforms' adapters: each claims its token machine-wide first (when the
 * gateway was given a claimer); a refused claim or a throwing factory leaves that platform failed,
 * reported in /health, and never takes the gateway down.
 */
import type {
  DownloadGate,
  Logger,
  PlatformAdapter,
  PlatformFactory,
  PlatformState,
  RouteOptions,
  RouteRequest,
  RouteResponse,
} from '@hermes/protocol';
import { commandList } from '../commands/commands.js';
import { downloadGates } from '../media/download-gate.js';
import { cachePorts } from '../media/inbound-media.js';
import type { Env } from '../pipeline/allowlist.js';
import type { AdapterState } from '../store/gateway-store.js';
import type { GatewayDeps } from './gateway-deps.js';

export interface RouteDefinition {
  method: 'GET' | 'POST';
  path: string;
  handler: (request: RouteRequest) => Promise<RouteResponse>;
  /** header check run before the body is read (see PlatformContext.route) */
  verify?: RouteOptions['verify'];
  /** a browser page's route: Host checked, no API key (RouteOptions.browser) */
  browser?: boolean;
  /** takes multipart/form-data as a Buffer */
  multipart?: boolean;
  bodyLimit?: number;
}

export interface PlatformSetupPorts {
  platforms: readonly PlatformFactory[];
  platformSettings: Readonly<Record<string, Readonly<Record<string, unknown>> & { enabled?: boolean | undefined }>>;
  env: Env;
  logger: Logger;
  cacheDir: string;
  mediaMaxBytes?: number | undefined;
  /** each platform's download gate (absent: every file is stored) */
  downloads?: (platform: string) => DownloadGate;
  platformState: AdapterState;
  pluginCommands: () => ReadonlyMap<string, { description: string }>;
  claimPlatform?: (platform: string, key: string) => { ok: true; release(): void } | { ok: false; reason: string };
  addRoute(platform: string, route: RouteDefinition): void;
  now: () => number;
}

export interface PlatformSetup {
  adapters: Map<string, PlatformAdapter>;
  failed: Map<string, PlatformState>;
  claims: { release(): void }[];
}

export function setUpPlatforms(ports: PlatformSetupPorts): PlatformSetup {
  const out: PlatformSetup = { adapters: new Map(), failed: new Map(), claims: [] };
  for (const factory of ports.platforms) {
    const settings = ports.platformSettings[factory.name] ?? {};
    if (settings.enabled === false || !factory.hasCredentials(ports.env)) continue;
    const key = factory.instanceKey?.(ports.env);
    if (key && ports.claimPlatform) {
      const claim = ports.claimPlatform(factory.name, key);
      if (!claim.ok) {
        ports.logger.error({ platform: factory.name }, `platform ${factory.name} not started: ${claim.reason}`);
        out.failed.set(factory.name, { state: 'error', since: ports.now(), error: claim.reason });
        continue;
      }
      out.claims.push(claim);
    }
    try {
      const adapter = factory.create({
        settings,
        env: ports.env,
        logger: ports.logger.child({ platform: factory.name }),
        cacheDir: ports.cacheDir,
        ...(ports.mediaMaxBytes === undefined ? {} : { mediaMaxBytes: ports.mediaMaxBytes }),
        ...(ports.downloads === undefined ? {} : { downloads: ports.downloads(factory.name) }),
        state: {
          get: (k) => ports.platformState.get(factory.name, k),
          set: (k, value) => ports.platformState.set(factory.name, k, value),
          delete: (k) => ports.platformState.delete(factory.name, k),
        },
        commands: () => commandList(ports.pluginCommands()),
        route: (method, path, handler, options) => ports.addRoute(factory.name, { method, path, handler, ...options }),
      });
      out.adapters.set(factory.name, adapter);
    } catch (err) {
      if (key && ports.claimPlatform) out.claims.pop()?.release();
      const message = err instanceof Error ? err.message : String(err);
      ports.logger.error({ err, platform: factory.name }, `platform ${factory.name} not started: ${message}`);
      out.failed.set(factory.name, { state: 'error', since: ports.now(), error: message });
    }
  }
  return out;
}

/** The platform ports of a gateway's deps: its settings, store, the download gate of each platform. */
export function gatewayPlatformPorts(
  deps: GatewayDeps,
  now: () => number,
  addRoute: PlatformSetupPorts['addRoute'],
): PlatformSetupPorts {
  const { settings, store } = deps;
  return {
    platforms: deps.platforms,
    platformSettings: settings.platformSettings,
    env: deps.env,
    logger: deps.logger,
    ...cachePorts(settings),
    // nothing stored for strangers; each user's daily upload quota (media/download-gate.ts)
    downloads: downloadGates({
      env: deps.env,
      pairing: store.pairing,
      counters: store.usageCounters,
      ownerOf: (identity) => store.identityLinks.ownerOf(identity),
      dailyBytes: settings.media?.dailyUploadBytes ?? Number.POSITIVE_INFINITY,
      now,
      logger: deps.logger,
    }),
    platformState: store.adapterState,
    pluginCommands: deps.pluginCommands,
    ...(deps.claimPlatform ? { claimPlatform: deps.claimPlatform } : {}),
    addRoute,
    now,
  };
}
