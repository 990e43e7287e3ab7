/**
 * A reload's outcome, as the gateway writes it to HERMES_HOME/gateway.reload.json (where
 * `hermes gateway reload` reads it) and logs it: what changed, what failed and why, and which keys
 * wait for a restart. One file per HERMES_HOME, replaced atomically by each reload.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, writeFileAtomicSync } from '@hermes/protocol';

export interface ReloadFailure {
  /** what did not reload: `plugin calculator`, `MCP server docs`, `config.yaml` */
  what: string;
  reason: string;
}

export interface ReloadResult {
  /** the gateway that reloaded */
  pid: number;
  /** 1 for the first reload of this process, then counting */
  generation: number;
  /** when the reload began and ended (ms since the epoch) */
  started_at: number;
  finished_at: number;
  /** refused: the new config was invalid and nothing changed; partial: some part failed */
  outcome: 'applied' | 'partial' | 'refused';
  /** what the reload changed, one line each */
  changed: string[];
  failed: ReloadFailure[];
  /** config.yaml keys and .env variables that changed but apply only after a restart */
  restart: string[];
  /** config.yaml's warnings (unknown keys) */
  warnings: string[];
}

/** HERMES_HOME/gateway.reload.json */
export const reloadResultPath = (home: string): string => join(home, 'gateway.reload.json');

/** Writes the result for `hermes gateway reload` (owner-only: it names plugins and keys). */
export function writeReloadResult(home: string, result: ReloadResult): void {
  writeFileAtomicSync(reloadResultPath(home), `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });
}

/** The last result written, or null (none yet, or unreadable). */
export function readReloadResult(home: string): ReloadResult | null {
  try {
    const value = JSON.parse(readFileSync(reloadResultPath(home), 'utf8')) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const r = value as Partial<ReloadResult>;
    if (typeof r.pid !== 'number' || typeof r.started_at !== 'number' || typeof r.outcome !== 'string') return null;
    return {
      pid: r.pid,
      generation: r.generation ?? 0,
      started_at: r.started_at,
      finished_at: r.finished_at ?? r.started_at,
      outcome: r.outcome,
      changed: r.changed ?? [],
      failed: r.failed ?? [],
      restart: r.restart ?? [],
      warnings: r.warnings ?? [],
    };
  } catch {
    return null;
  }
}

/** The result in a few lines for people (the CLI's output; the log gets the first line). */
export function reloadLines(r: ReloadResult): string[] {
  const head =
    r.outcome === 'refused'
      ? `reload refused (the running configuration stays): ${r.failed[0]?.reason ?? 'unknown reason'}`
      : `reloaded (generation ${r.generation}): ${r.changed.length === 0 ? 'nothing changed' : `${r.changed.length} change${r.changed.length > 1 ? 's' : ''}`}${r.failed.length > 0 ? `, ${r.failed.length} failed` : ''}${r.restart.length > 0 ? `, needs a restart: ${r.restart.join(', ')}` : ''}`;
  const lines = [head];
  for (const c of r.changed) lines.push(`  changed: ${c}`);
  if (r.outcome !== 'refused') for (const f of r.failed) lines.push(`  failed: ${f.what}: ${f.reason}`);
  if (r.restart.length > 0) lines.push(`  needs a restart: ${r.restart.join(', ')}`);
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  return lines;
}

/**
 * The exit code of `hermes gateway reload`: 78 refused (invalid configuration), 1 a part failed,
 * 75 applied but some changes need a restart ("restart me"), 0 all applied.
 */
export function reloadExitCode(r: ReloadResult): number {
  if (r.outcome === 'refused') return EXIT.CONFIG;
  if (r.failed.length > 0) return EXIT.ERROR;
  if (r.restart.length > 0) return EXIT.RESTART;
  return EXIT.OK;
}
