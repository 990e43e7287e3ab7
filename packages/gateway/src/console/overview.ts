/** The overview's data: version, uptime, each platform's state (as /health, with reconnects). */
import type { ConsoleContext } from './context.js';

export interface PlatformView {
  state: string;
  since: number;
  error?: string;
  reconnects: number;
}

export function platformsView(ctx: ConsoleContext): Record<string, PlatformView> {
  const out: Record<string, PlatformView> = {};
  for (const [name, st] of Object.entries(ctx.gateway.platformStates())) {
    const standby = ctx.cluster?.standby(name) === true;
    out[name] = {
      state: standby ? 'standby' : st.state,
      since: st.since,
      ...(!standby && st.error !== undefined ? { error: ctx.redact(st.error) } : {}),
      reconnects: ctx.gateway.metrics.platform(name).reconnects.value,
    };
  }
  return out;
}

export async function overview(ctx: ConsoleContext) {
  const cluster = ctx.cluster
    ? await ctx.cluster.status().catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))
    : undefined;
  return {
    version: ctx.version,
    uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
    platforms: platformsView(ctx),
    ...(cluster === undefined ? {} : { cluster }),
  };
}
