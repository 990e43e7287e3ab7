/** Imports each hook's handler (TypeScript or JavaScript, no build step) and finds its `handle`. */
import type { ModuleImporter } from '@hermes/plugins';
import type { GatewayHookHandler, Logger } from '@hermes/protocol';
import type { GatewayHookSpec } from './discover.js';

export interface LoadedGatewayHook extends GatewayHookSpec {
  handle: GatewayHookHandler;
}

/** The handler a module exports: `handle`, a default function, or a default object's `handle`. */
export function handleOf(mod: unknown): GatewayHookHandler | null {
  if (typeof mod !== 'object' || mod === null) return null;
  const m = mod as { handle?: unknown; default?: unknown };
  if (typeof m.handle === 'function') return m.handle as GatewayHookHandler;
  if (typeof m.default === 'function') return m.default as GatewayHookHandler;
  const d = m.default as { handle?: unknown } | undefined;
  if (typeof d === 'object' && d !== null && typeof d.handle === 'function') return d.handle as GatewayHookHandler;
  return null;
}

/** Loads the handlers; a hook whose file fails to import or exports no `handle` is left out and logged. */
export async function loadGatewayHooks(
  specs: readonly GatewayHookSpec[],
  importer: ModuleImporter,
  logger: Logger,
): Promise<{ loaded: LoadedGatewayHook[]; failed: { hook: GatewayHookSpec; reason: string }[] }> {
  const loaded: LoadedGatewayHook[] = [];
  const failed: { hook: GatewayHookSpec; reason: string }[] = [];
  for (const spec of specs) {
    for (const warning of spec.warnings) logger.warn({ hook: spec.name }, warning);
    let reason: string;
    try {
      const handle = handleOf(await importer(spec.handlerFile));
      if (handle) {
        loaded.push({ ...spec, handle });
        continue;
      }
      reason = `${spec.handlerFile} exports no handle(eventType, context) function`;
    } catch (err) {
      reason = `${spec.handlerFile} failed to load: ${err instanceof Error ? err.message : String(err)}`;
    }
    failed.push({ hook: spec, reason });
    logger.warn({ hook: spec.name }, `gateway hook ${spec.name} skipped: ${reason}`);
  }
  return { loaded, failed };
}
