/**
 * The parts of a gateway reload after the plugins: shell hooks, skills, MCP servers, the gateway
 * hooks of HERMES_HOME/hooks and the settings new turns start with. Each part reports what it
 * changed and what failed; none throws (a part that fails leaves that part as it was).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type McpReconcileResult, reconfigureTurnService, turnConfig } from '@hermes/agent';
import { BUILTIN_COMMANDS } from '@hermes/gateway';
import { allowlistPath, hashHookFolder, type RegisterShellHooksResult, registerShellHooks } from '@hermes/plugins';
import type { GatewayApp } from '../gateway-app.js';
import { approvedHomeHooks } from '../gateway-hook-consent.js';
import type { GlobalOptions } from '../main.js';
import { mcpServerSettings } from '../mcp-setup.js';
import { pluginAliases } from '../plugin-sources.js';
import { type Settings, userHome } from '../settings.js';
import { loadSkillCatalog, surfaceSkillCommands } from '../skills-setup.js';
import { type TrustGate, trustedAutoAcceptVia, trustedFiles } from '../trust/trust-gate.js';
import type { PartReport } from './plugin-reload.js';
import type { SkillCommandsSlot } from './skill-commands-slot.js';

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const emptyReport = (): PartReport => ({ changed: [], failed: [], restart: [] });

const hookLabel = (h: { spec: { event: string; command: string } }) => `${h.spec.event} "${h.spec.command}"`;

/**
 * Registers config.yaml's shell hooks again (consent checked as at start; nobody is asked), then
 * removes the previous registrations: no moment without them, and they stay after every plugin's.
 */
export async function reloadShellHooks(app: GatewayApp, next: Settings, options: GlobalOptions): Promise<PartReport> {
  const { rt } = app;
  const report = emptyReport();
  const previous = rt.shellHooks;
  const warnings: string[] = [];
  let result: RegisterShellHooksResult;
  try {
    result = await registerShellHooks({
      bus: rt.hooks,
      hooks: next.config.hooks,
      configPath: rt.paths.config,
      allowlistPath: allowlistPath(rt.home),
      userHome: userHome(rt.env),
      cwd: rt.config.terminal.cwd ?? process.cwd(),
      autoAccept: trustedAutoAcceptVia(next, options.acceptHooks ?? false),
      prompt: null,
      logger: rt.logger.child({ component: 'shell-hooks' }),
      warn: (message) => warnings.push(message),
    });
  } catch (err) {
    report.failed.push({ what: 'shell hooks', reason: errorText(err) });
    return report;
  }
  for (const h of previous.registered) h.unregister();
  rt.shellHooks = result;
  const before = new Set(previous.registered.map(hookLabel));
  const after = new Set(result.registered.map(hookLabel));
  for (const h of after) if (!before.has(h)) report.changed.push(`shell hook ${h} registered`);
  for (const h of before) if (!after.has(h)) report.changed.push(`shell hook ${h} removed`);
  for (const w of warnings) if (!previous.warnings.includes(w)) report.failed.push({ what: 'shell hooks', reason: w });
  return report;
}

/** Reads the skills again (HERMES_HOME/skills, the plugins' now, skills.disabled, consent) for skill_view, skills_list and /skill-name. */
export function reloadSkills(app: GatewayApp, next: Settings, trust: TrustGate, slot: SkillCommandsSlot): PartReport {
  const { rt } = app;
  const report = emptyReport();
  const logger = rt.logger.child({ component: 'skills' });
  const before = new Set(rt.skills.skills.map((s) => s.name));
  const catalog = loadSkillCatalog(next, rt.registries, logger, trust.allows);
  rt.setSkills(catalog);
  const taken = (name: string) => name in BUILTIN_COMMANDS || rt.registries.commands.has(name);
  slot.set(surfaceSkillCommands(catalog, taken, 'chats', logger));
  const after = new Set(catalog.skills.map((s) => s.name));
  const added = [...after].filter((n) => !before.has(n));
  const removed = [...before].filter((n) => !after.has(n));
  if (added.length > 0) report.changed.push(`skills added: ${added.join(', ')}`);
  if (removed.length > 0) report.changed.push(`skills removed: ${removed.join(', ')}`);
  return report;
}

/** Brings the MCP servers to `mcp_servers` (approved ones only): removed ones stop, new and changed ones start. */
export async function reloadMcp(app: GatewayApp, next: Settings, trust: TrustGate): Promise<PartReport> {
  const { rt } = app;
  const report = emptyReport();
  const approved = Object.fromEntries(
    Object.entries(next.config.mcp_servers).filter(([name]) => trust.allows(`mcp:${name}`)),
  );
  let result: McpReconcileResult;
  try {
    result = await rt.mcp.reconcile(mcpServerSettings({ ...next.config, mcp_servers: approved }, rt.env, rt.home));
  } catch (err) {
    report.failed.push({ what: 'MCP servers', reason: errorText(err) });
    return report;
  }
  for (const name of result.added) report.changed.push(`MCP server ${name} started`);
  for (const name of result.restarted) report.changed.push(`MCP server ${name} restarted (its settings changed)`);
  for (const name of result.removed) report.changed.push(`MCP server ${name} stopped`);
  return report;
}

/** What the gateway hooks depend on: HERMES_HOME/hooks' files, their consent file, BOOT.md's approval, the escape hatch. */
function hooksFingerprint(next: Settings, options: GlobalOptions): string {
  let consent = '';
  try {
    consent = readFileSync(allowlistPath(next.home), 'utf8');
  } catch {
    // no consent file: nothing approved
  }
  return JSON.stringify([
    hashHookFolder(join(next.home, 'hooks')).sha256,
    consent,
    trustedFiles(next.home),
    trustedAutoAcceptVia(next, options.acceptHooks ?? false),
  ]);
}

/** Restarts the gateway hooks' worker with the approved hooks of HERMES_HOME/hooks, when they or their consent changed. */
export class GatewayHooksReload {
  #fingerprint: string;

  constructor(start: Settings, options: GlobalOptions) {
    this.#fingerprint = hooksFingerprint(start, options);
  }

  async reload(app: GatewayApp, next: Settings, options: GlobalOptions): Promise<PartReport> {
    const report = emptyReport();
    const fingerprint = hooksFingerprint(next, options);
    if (fingerprint === this.#fingerprint) return report;
    const before = new Set(app.gatewayHooks().map((h) => h.name));
    try {
      const after = await app.reloadHooks({
        approve: (discovered, logger) => approvedHomeHooks(next, discovered, options, logger),
        aliases: pluginAliases(),
        trusted: trustedFiles(next.home),
      });
      this.#fingerprint = fingerprint;
      const names = after.map((h) => h.name);
      const added = names.filter((n) => !before.has(n));
      const removed = [...before].filter((n) => !names.includes(n));
      const kept = names.filter((n) => before.has(n));
      if (added.length > 0) report.changed.push(`gateway hooks started: ${added.join(', ')}`);
      if (removed.length > 0) report.changed.push(`gateway hooks stopped: ${removed.join(', ')}`);
      if (kept.length > 0) report.changed.push(`gateway hooks reloaded: ${kept.join(', ')}`);
    } catch (err) {
      report.failed.push({ what: 'gateway hooks', reason: errorText(err) });
    }
    return report;
  }
}

/** The settings the turns that start from now on use (a running turn keeps its own). */
export function reloadTurnSettings(app: GatewayApp, next: Settings, keys: readonly string[]): PartReport {
  const { rt } = app;
  const report = emptyReport();
  try {
    const turn = turnConfig(next.config, {
      model: rt.model,
      context: { engines: rt.registries.contextEngines, summaries: rt.store.contextSummaries },
      skillsIndex: rt.skills.index(),
    });
    reconfigureTurnService(app.gateway.turns, turn);
    if (keys.length > 0) report.changed.push(`new turns use: ${keys.join(', ')}`);
  } catch (err) {
    report.failed.push({ what: 'turn settings', reason: `${errorText(err)}; turns keep the previous settings` });
  }
  return report;
}
