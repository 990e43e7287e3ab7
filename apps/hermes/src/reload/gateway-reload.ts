/**
 * `hermes gateway reload` / SIGHUP in the running gateway: config.yaml (and .env) read again and
 * validated (an invalid file is refused, naming file and line, and nothing changes), then the
 * reloadable parts rebuilt in place of the old: the plugins, shell hooks, skills, MCP servers, the
 * gateway hooks of HERMES_HOME/hooks and the settings new turns start with, each behind the same
 * trust checks as at start. Platform connections and running turns are not touched; a changed key
 * that only a restart applies is reported (config-diff.ts) and left as it is.
 */
import { configPaths, type HermesConfig, loadConfig, loadDotEnv, secretValues } from '@hermes/config';
import type { GatewayApp } from '../gateway-app.js';
import type { GlobalOptions } from '../main.js';
import type { Settings } from '../settings.js';
import { pendingLine, trustGate } from '../trust/trust-gate.js';
import { changedEnvNames, changedKeys, reloads, restartKeys } from './config-diff.js';
import { type PartReport, reloadPlugins } from './plugin-reload.js';
import { GatewayHooksReload, reloadMcp, reloadShellHooks, reloadSkills, reloadTurnSettings } from './reload-parts.js';
import type { ReloadResult } from './reload-result.js';
import type { SkillCommandsSlot } from './skill-commands-slot.js';

/** Keys with a part of their own (the rest of the reloadable keys are turn settings). */
const OWN_PARTS = ['plugins.', 'hooks.', 'hooks_auto_accept', 'skills.', 'mcp_servers.'];

export interface GatewayReloader {
  /** Runs one reload (reloads asked for while one runs are run once after it); never throws. */
  reload(): Promise<ReloadResult>;
}

/** The settings of the next generation: config.yaml and .env read again (throws a ConfigError when invalid). */
function readSettings(app: GatewayApp): { next: Settings; warnings: string[]; dotenv: Record<string, string> } {
  const { rt } = app;
  const dotenv = { ...loadDotEnv(rt.home, process.env).values };
  const { config, warnings } = loadConfig({ home: rt.home, env: process.env });
  // .env is not applied again (its variables need a restart): the start's values stay in force
  const next: Settings = {
    home: rt.home,
    profile: rt.profile,
    paths: configPaths(rt.home),
    config,
    env: rt.env,
    dotenv: rt.dotenv,
  };
  return { next, warnings: warnings.map((w) => w.message), dotenv };
}

/** A reloader for the running gateway `app`; `slot` holds the chats' `/skill-name` commands. */
export function createGatewayReloader(
  app: GatewayApp,
  options: GlobalOptions,
  slot: SkillCommandsSlot,
  now: () => number = Date.now,
): GatewayReloader {
  const { rt } = app;
  const startConfig: HermesConfig = rt.config;
  let applied: HermesConfig = rt.config;
  let generation = 0;
  let pending = new Set(trustGate(rt).pending.map((p) => p.item.id));
  const hooksReload = new GatewayHooksReload(rt, options);
  const knownSecrets = new Set(rt.secrets());

  async function once(): Promise<ReloadResult> {
    const startedAt = now();
    const result: ReloadResult = {
      pid: process.pid,
      generation: generation + 1,
      started_at: startedAt,
      finished_at: startedAt,
      outcome: 'applied',
      changed: [],
      failed: [],
      restart: [],
      warnings: [],
    };
    let read: ReturnType<typeof readSettings>;
    try {
      read = readSettings(app);
    } catch (err) {
      // the running configuration stays: nothing below runs
      const reason = err instanceof Error ? err.message : String(err);
      return {
        ...result,
        generation,
        outcome: 'refused',
        failed: [{ what: 'config.yaml', reason }],
        finished_at: now(),
      };
    }
    const { next } = read;
    result.warnings.push(...read.warnings);
    // against what runs: the start's for keys that need a restart, the last reload's for the rest
    result.restart.push(...restartKeys(changedKeys(startConfig, next.config)));
    result.restart.push(...changedEnvNames(rt.dotenv, read.dotenv).map((name) => `.env ${name}`));
    const reloaded = changedKeys(applied, next.config).filter(reloads);
    // the log's redaction learns secrets at start: MCP settings holding a new one wait for a restart
    const newSecret = secretValues(next.config, rt.env, { dotenv: rt.dotenv }).some((s) => !knownSecrets.has(s));
    const trust = trustGate(next);
    const add = (part: PartReport) => {
      result.changed.push(...part.changed);
      result.failed.push(...part.failed);
      result.restart.push(...part.restart);
    };
    // the plugins first, the shell hooks after them (a plugin's block decision wins a tie, as at start)
    add(await reloadPlugins(rt, next, trust));
    add(await reloadShellHooks(app, next, options));
    add(reloadSkills(app, next, trust, slot));
    if (newSecret && reloaded.some((k) => k.startsWith('mcp_servers.'))) {
      result.restart.push('mcp_servers (a new secret value: the log redaction learns them at start)');
    } else {
      add(await reloadMcp(app, next, trust));
    }
    add(await hooksReload.reload(app, next, options));
    const turnKeys = reloaded.filter((k) => !OWN_PARTS.some((p) => k === p || k.startsWith(p)));
    add(reloadTurnSettings(app, next, turnKeys));
    // an item not approved: reported as failed the first time, then as a warning until approved
    const nowPending = trust.pending.filter(
      (p) => p.item.kind === 'plugin' || p.item.kind === 'mcp' || p.item.kind === 'skill',
    );
    for (const p of nowPending) {
      if (pending.has(p.item.id)) result.warnings.push(pendingLine(p));
      else result.failed.push({ what: p.item.what, reason: pendingLine(p) });
    }
    pending = new Set(trust.pending.map((p) => p.item.id));
    applied = next.config;
    generation = result.generation;
    result.restart = [...new Set(result.restart)];
    result.outcome = result.failed.length > 0 ? 'partial' : 'applied';
    result.finished_at = now();
    return result;
  }

  /** once(), with a failure nobody foresaw reported instead of thrown */
  async function guarded(): Promise<ReloadResult> {
    const startedAt = now();
    try {
      return await once();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return {
        pid: process.pid,
        generation,
        started_at: startedAt,
        finished_at: now(),
        outcome: 'partial',
        changed: [],
        failed: [{ what: 'reload', reason }],
        restart: [],
        warnings: [],
      };
    }
  }

  // one reload at a time; reloads asked for meanwhile become one more after it
  let running: Promise<ReloadResult> | null = null;
  let queued: Promise<ReloadResult> | null = null;
  function reload(): Promise<ReloadResult> {
    if (running === null) {
      running = guarded().finally(() => {
        running = null;
      });
      return running;
    }
    queued ??= running.then(() => {
      queued = null;
      return reload();
    });
    return queued;
  }
  return { reload };
}
