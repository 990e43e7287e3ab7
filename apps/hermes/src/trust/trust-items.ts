/**
 * What needs the operator's consent before the gateway loads or runs it at start, each with the
 * hash of its content now: the non-bundled plugins in plugins.enabled, each `mcp_servers` entry, each `tts.providers` command,
 * the skills of HERMES_HOME/skills, the skill taps of HERMES_HOME/skill-taps, `hooks_auto_accept: true` and HERMES_ACCEPT_HOOKS when it
 * comes from HERMES_HOME/.env, HERMES_HOME/BOOT.md (the boot-md hook runs it at every start), and
 * the cron pre-run scripts of HERMES_HOME/scripts (script-items.ts; run before a job's runs).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesConfig } from '@hermes/config';
import { acceptHooksFromEnv, type DiscoveredPlugin, discoverPlugins, hashHookFolder } from '@hermes/plugins';
import { pluginSources } from '../plugin-sources.js';
import type { Settings } from '../settings.js';
import { tapItems } from '../skill-taps/tap-items.js';
import { scriptItems } from './script-items.js';

export type TrustKind = 'plugin' | 'mcp' | 'tts' | 'skill' | 'tap' | 'config' | 'env' | 'boot' | 'script';

export interface TrustItem {
  /** `<kind>:<name>`, what `hermes trust approve` takes */
  id: string;
  kind: TrustKind;
  /** for people: what loading it does */
  what: string;
  /** sha256 of its content now */
  sha256: string;
}

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** JSON with object keys sorted, so the same entry always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The consent-relevant content of an `mcp_servers` entry: what it runs or reaches, with which env and headers. */
export function mcpItem(name: string, server: HermesConfig['mcp_servers'][string]): TrustItem {
  const { command, args, env, cwd, url, headers } = server;
  const what = url !== undefined ? `MCP server ${name} (${url})` : `MCP server ${name} (runs ${command ?? ''})`;
  return {
    id: `mcp:${name}`,
    kind: 'mcp',
    what,
    sha256: sha256(stableJson({ command, args, env, cwd, url, headers })),
  };
}

/** The consent-relevant content of a `tts.providers` entry: the command it runs and how its audio is read. */
export function ttsItem(name: string, entry: HermesConfig['tts']['providers'][string]): TrustItem {
  const { type, command, output_format } = entry;
  return {
    id: `tts:${name}`,
    kind: 'tts',
    what: `TTS command ${name} (runs ${command[0] ?? ''})`,
    sha256: sha256(stableJson({ type, command, output_format })),
  };
}

/** A plugin's item: its folder's files. */
export function pluginItem(found: Pick<DiscoveredPlugin, 'key' | 'dir' | 'source'>): TrustItem {
  return {
    id: `plugin:${found.key}`,
    kind: 'plugin',
    what: `plugin ${found.key} (${found.source}: ${found.dir})`,
    sha256: hashHookFolder(found.dir).sha256,
  };
}

/** The plugins of plugins.enabled that are not bundled (their code is not the release's). */
export function enabledForeignPlugins(settings: Pick<Settings, 'home' | 'env' | 'config'>): DiscoveredPlugin[] {
  const found = discoverPlugins(pluginSources({ home: settings.home, cwd: process.cwd(), env: settings.env }));
  const enabled = new Set(settings.config.plugins.enabled);
  return found.filter((p) => p.source !== 'bundled' && enabled.has(p.key));
}

/** One item per skill folder of HERMES_HOME/skills (its files hashed). */
export function skillItems(home: string): TrustItem[] {
  const dir = join(home, 'skills');
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    // no skills folder: nothing to consent to
    return [];
  }
  return names
    .filter((n) => !n.startsWith('.') && isDirectory(join(dir, n)))
    .map((n) => ({
      id: `skill:${n}`,
      kind: 'skill' as const,
      what: `skill ${n} (${join(dir, n)})`,
      sha256: hashHookFolder(join(dir, n)).sha256,
    }));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The escape hatches that approve hooks without asking, when they need consent themselves. */
export function hatchItems(settings: Pick<Settings, 'config' | 'dotenv'>): TrustItem[] {
  const items: TrustItem[] = [];
  if (settings.config.hooks_auto_accept) {
    items.push({
      id: 'config:hooks_auto_accept',
      kind: 'config',
      what: 'hooks_auto_accept: true in config.yaml (approves every shell and gateway hook)',
      sha256: sha256('true'),
    });
  }
  const fromFile = settings.dotenv.HERMES_ACCEPT_HOOKS;
  if (fromFile !== undefined && acceptHooksFromEnv({ HERMES_ACCEPT_HOOKS: fromFile })) {
    items.push({
      id: 'env:HERMES_ACCEPT_HOOKS',
      kind: 'env',
      what: 'HERMES_ACCEPT_HOOKS in HERMES_HOME/.env (approves every shell and gateway hook)',
      sha256: sha256(fromFile.trim().toLowerCase()),
    });
  }
  return items;
}

/** The id of HERMES_HOME/BOOT.md's item. */
export const BOOT_ITEM = 'boot:BOOT.md';

/**
 * HERMES_HOME/BOOT.md, hashed byte for byte as the boot-md hook reads it (`hermes.trustedFile`),
 * when there is one.
 */
export function bootItem(home: string): TrustItem[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(home, 'BOOT.md'));
  } catch {
    return []; // no BOOT.md: nothing runs
  }
  return [
    {
      id: BOOT_ITEM,
      kind: 'boot',
      what: `BOOT.md (${join(home, 'BOOT.md')}, run as an agent at every start by the boot-md hook)`,
      sha256: sha256(bytes),
    },
  ];
}

/** Every item that needs consent now. */
export function trustItems(settings: Settings): TrustItem[] {
  return [
    ...hatchItems(settings),
    ...enabledForeignPlugins(settings).map(pluginItem),
    ...Object.entries(settings.config.mcp_servers)
      .filter(([, s]) => s.enabled)
      .map(([name, s]) => mcpItem(name, s)),
    ...Object.entries(settings.config.tts.providers).map(([name, entry]) => ttsItem(name, entry)),
    ...skillItems(settings.home),
    ...tapItems(settings.home),
    ...bootItem(settings.home),
    // the cron pre-run scripts of HERMES_HOME/scripts: run before a job's runs, each only as approved
    ...scriptItems(settings.home),
  ];
}
