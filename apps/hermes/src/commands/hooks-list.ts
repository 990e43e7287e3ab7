/** `hermes hooks list [--json]`: the shell hooks of config.yaml with consent, and the gateway hooks of HERMES_HOME/hooks. */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { ShellHookAllowlist } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { consentLabel, type HooksContext, loadHooksContext, type ShellHookInfo } from './hooks-context.js';
import { renderTable } from './hooks-table.js';

export interface ShellHookListEntry {
  event: string;
  matcher: string | null;
  /** seconds */
  timeout: number;
  command: string;
  /** the script file consent is bound to, or null */
  script: string | null;
  sha256: string | null;
  consent: ShellHookInfo['consent'];
}

export interface GatewayHookListEntry {
  /** HOOK.yaml `name`; the folder name when the folder is invalid */
  name: string;
  description: string;
  events: string[];
  dir: string;
  /** the handler file, null when the folder is invalid */
  handler: string | null;
  /** why the folder is not a valid hook, or null */
  error: string | null;
  /** approved: loads at the next start; pending: not loaded until `hermes hooks approve NAME`; null for an invalid folder */
  consent: 'approved' | 'pending' | null;
  /** why pending: `new` or `changed` (since approval); null otherwise */
  pending_reason: 'new' | 'changed' | null;
  /** sha256 over the folder's files now, null for an invalid folder */
  sha256: string | null;
}

export interface HooksListJson {
  shell: ShellHookListEntry[];
  gateway: GatewayHookListEntry[];
}

function shellEntry(info: ShellHookInfo): ShellHookListEntry {
  return {
    event: info.spec.event,
    matcher: info.spec.matcher,
    timeout: info.spec.timeoutS,
    command: info.spec.command,
    script: info.script?.path ?? null,
    sha256: info.script?.sha256 ?? null,
    consent: info.consent,
  };
}

async function handlerProblem(file: string): Promise<string | null> {
  const { moduleSyntaxError } = await import('@hermes/plugins');
  return moduleSyntaxError(file);
}

/**
 * Gateway hooks under `hooksDir` with their consent: valid ones first (folder order), then hooks
 * whose handler does not parse (failing: parsed, never run), then invalid folders with the reason.
 */
export async function gatewayHookEntries(
  hooksDir: string,
  allowlist: ShellHookAllowlist,
): Promise<GatewayHookListEntry[]> {
  // the gateway package is heavy to load: only when there is a hooks folder to read
  if (!existsSync(hooksDir)) return [];
  const { discoverGatewayHooks, gatewayHookConsent } = await import('@hermes/gateway');
  const { hooks, skipped } = discoverGatewayHooks(hooksDir);
  const broken = await Promise.all(hooks.map((h) => handlerProblem(h.handlerFile)));
  const entry = (h: (typeof hooks)[number], error: string | null): GatewayHookListEntry => {
    const consent = gatewayHookConsent(allowlist, h);
    return {
      name: h.name,
      description: h.description,
      events: [...h.events],
      dir: h.dir,
      handler: h.handlerFile,
      error,
      consent: consent.state === 'approved' ? 'approved' : 'pending',
      pending_reason: consent.state === 'approved' ? null : consent.state,
      sha256: consent.sha256,
    };
  };
  return [
    ...hooks.flatMap((h, i) => (broken[i] === null ? [entry(h, null)] : [])),
    ...hooks.flatMap((h, i) => {
      const problem = broken[i];
      return problem === null || problem === undefined
        ? []
        : [entry(h, `${basename(h.handlerFile)} does not load: ${problem}`)];
    }),
    ...skipped.map((s) => ({
      name: basename(s.dir),
      description: '',
      events: [],
      dir: s.dir,
      handler: null,
      error: s.reason,
      consent: null,
      pending_reason: null,
      sha256: null,
    })),
  ];
}

/** Both lists, as `hermes hooks list --json` prints them. */
export async function hooksListJson(ctx: HooksContext): Promise<HooksListJson> {
  return {
    shell: ctx.shell.map(shellEntry),
    gateway: await gatewayHookEntries(ctx.settings.paths.hooksDir, ctx.allowlist),
  };
}

function renderShell(ctx: HooksContext, entries: ShellHookListEntry[]): string {
  const where = ctx.settings.paths.config;
  if (entries.length === 0) return `Shell hooks: none (the hooks: block of ${where})\n`;
  const rows = entries.map((e) => [e.event, e.matcher ?? '-', `${e.timeout}s`, consentLabel(e.consent), e.command]);
  let text = `Shell hooks (${where}):\n${renderTable(['EVENT', 'MATCHER', 'TIMEOUT', 'CONSENT', 'COMMAND'], rows)}`;
  if (ctx.autoAccept !== null && entries.some((e) => e.consent !== 'allowed')) {
    text += `(${ctx.autoAccept} is in force: hooks not allowed yet are accepted on the next run)\n`;
  }
  return text;
}

/** A gateway hook's consent in the table: approved / pending (new) / pending (changed since approval). */
export function gatewayConsentLabel(e: GatewayHookListEntry): string {
  if (e.consent !== 'pending') return e.consent ?? '';
  return `pending (${e.pending_reason === 'changed' ? 'changed since approval' : 'new'})`;
}

function renderGateway(ctx: HooksContext, entries: GatewayHookListEntry[]): string {
  const hooksDir = ctx.settings.paths.hooksDir;
  if (entries.length === 0) return `Gateway hooks: none (folders with HOOK.yaml in ${hooksDir})\n`;
  const valid = entries.filter((e) => e.error === null);
  const invalid = entries.filter((e) => e.error !== null);
  let text = `Gateway hooks (${hooksDir}):\n`;
  if (valid.length > 0) {
    text += renderTable(
      ['NAME', 'CONSENT', 'EVENTS', 'HANDLER', 'DESCRIPTION'],
      valid.map((e) => [e.name, gatewayConsentLabel(e), e.events.join(','), e.handler ?? '', e.description]),
    );
  }
  for (const e of invalid) text += `invalid: ${e.dir}: ${e.error}\n`;
  if (valid.some((e) => e.consent === 'pending')) {
    text +=
      ctx.autoAccept === null
        ? 'pending hooks do not load: review their folder, then run `hermes hooks approve NAME` (or --all)\n'
        : `(${ctx.autoAccept} is in force: pending hooks are approved at the next gateway start)\n`;
  }
  return text;
}

/** Prints both lists: tables, or with --json `{shell, gateway}`. */
export async function hooksList(options: GlobalOptions): Promise<void> {
  const ctx = loadHooksContext(options);
  const json = await hooksListJson(ctx);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${renderShell(ctx, json.shell)}\n${renderGateway(ctx, json.gateway)}`);
}
