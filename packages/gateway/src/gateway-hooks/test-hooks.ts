/** `hermes hooks test` for gateway hooks: fires the matching hooks once with a synthetic context, dry-run. */
import type { ModuleImporter } from '@hermes/plugins';
import {
  type GatewayEventType,
  gatewayEventExample,
  gatewayEventMatches,
  isGatewayEventType,
  type Logger,
} from '@hermes/protocol';
import { dryRunHost, hookApi } from './api.js';
import { discoverGatewayHooks, type GatewayHookSpec } from './discover.js';
import { loadGatewayHooks } from './load.js';

export interface GatewayHookTestResult {
  hook: string;
  ok: boolean;
  /** what the handler returned, or why it failed */
  detail: string;
  /** sends and agent runs it asked for (not performed) */
  calls: string[];
  ms: number;
}

/** The example context of an event (`command:*` events share one). */
export function exampleContext(event: string): Record<string, unknown> {
  return isGatewayEventType(event) ? { ...gatewayEventExample(event) } : {};
}

/** Fires every gateway hook under `hooksDir` subscribed to `event`; `context` overrides the example. */
export async function testGatewayHooks(
  hooksDir: string,
  event: GatewayEventType,
  options: {
    importer: ModuleImporter;
    logger: Logger;
    home: string;
    context?: Record<string, unknown>;
    timeoutMs?: number;
    /** why a hook must not run (not approved), or null to run it; default: every hook runs */
    refuse?: (spec: GatewayHookSpec) => string | null;
  },
): Promise<GatewayHookTestResult[]> {
  const { hooks } = discoverGatewayHooks(hooksDir);
  const matching = hooks.filter((h) => h.events.some((p) => gatewayEventMatches(p, event)));
  const refused = matching.map((h) => ({ hook: h, reason: options.refuse?.(h) ?? null }));
  const runnable = refused.filter((r) => r.reason === null).map((r) => r.hook);
  const { loaded, failed } = await loadGatewayHooks(runnable, options.importer, options.logger);
  const results: GatewayHookTestResult[] = [
    ...refused.flatMap((r) => (r.reason === null ? [] : [{ hook: r.hook, reason: r.reason }])),
    ...failed,
  ].map((f) => ({ hook: f.hook.name, ok: false, detail: f.reason, calls: [], ms: 0 }));
  const context = { ...exampleContext(event), ...options.context };
  const timeoutMs = options.timeoutMs ?? 30_000;
  for (const hook of loaded) {
    const host = dryRunHost(options.home, options.logger);
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs} ms`)), timeoutMs);
      });
      const value = await Promise.race([
        Promise.resolve(hook.handle(event, context, hookApi(host, hook.name))),
        timeout,
      ]);
      results.push({
        hook: hook.name,
        ok: true,
        detail: value === undefined ? 'returned nothing' : JSON.stringify(value),
        calls: host.calls,
        ms: performance.now() - started,
      });
    } catch (err) {
      results.push({
        hook: hook.name,
        ok: false,
        detail: err instanceof Error ? err.message : String(err),
        calls: host.calls,
        ms: performance.now() - started,
      });
    } finally {
      clearTimeout(timer);
    }
  }
  return results.sort((a, b) => a.hook.localeCompare(b.hook));
}
