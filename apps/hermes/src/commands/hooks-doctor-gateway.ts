/** The gateway-hook part of `hermes hooks doctor`: per hook of HERMES_HOME/hooks, its consent (pending = a problem). */
import type { HooksContext } from './hooks-context.js';
import { type GatewayHookListEntry, gatewayHookEntries } from './hooks-list.js';

export interface GatewayDoctorReport {
  name: string;
  dir: string;
  ok: boolean;
  /** consent in words, or why the folder is invalid */
  detail: string;
}

function report(e: GatewayHookListEntry, ctx: HooksContext): GatewayDoctorReport {
  const base = { name: e.name, dir: e.dir };
  if (e.error !== null) return { ...base, ok: false, detail: `invalid: ${e.error}` };
  if (e.consent === 'approved') return { ...base, ok: true, detail: `approved; sha256 ${e.sha256?.slice(0, 12)}` };
  const why = e.pending_reason === 'changed' ? 'changed since approval' : 'new';
  if (ctx.autoAccept !== null) {
    return { ...base, ok: true, detail: `pending (${why}); ${ctx.autoAccept} is in force: approved at the next start` };
  }
  return {
    ...base,
    ok: false,
    detail: `pending (${why}): not loaded by the gateway; review ${e.dir}, then run \`hermes hooks approve ${e.name}\``,
  };
}

/** Every gateway hook folder with its consent state. */
export async function gatewayDoctor(ctx: HooksContext): Promise<GatewayDoctorReport[]> {
  const entries = await gatewayHookEntries(ctx.settings.paths.hooksDir, ctx.allowlist);
  return entries.map((e) => report(e, ctx));
}

/** The report's lines. */
export function renderGatewayDoctor(reports: readonly GatewayDoctorReport[]): string[] {
  return reports.map((r) => `${r.ok ? '✓' : '✗'} gateway hook ${r.name}: ${r.detail}`);
}
