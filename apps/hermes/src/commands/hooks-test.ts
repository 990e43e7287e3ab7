/**
 * `hermes hooks test EVENT [--for-tool X] [--payload-file F] [--json]`: fires every matching
 * hook once with a synthetic payload from the hook table's example and prints what it answered.
 * Plugin-hook events run the shell hooks of config.yaml; gateway events (gateway:startup,
 * session:*, agent:*, command:*) run the gateway hooks of HERMES_HOME/hooks, dry.
 */
import { readFileSync } from 'node:fs';
import {
  closest,
  createModuleImporter,
  isToolEvent,
  runShellHook,
  type ShellHookReport,
  syntheticPayload,
  toolNameOf,
} from '@hermes/plugins';
import {
  ERROR_CODES,
  GATEWAY_EVENTS,
  type GatewayEventType,
  HermesError,
  HOOK_NAMES,
  type HookName,
  isGatewayEventType,
  isHookName,
  silentLogger,
} from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { pluginAliases } from '../plugin-sources.js';
import { consentLabel, type HooksContext, loadHooksContext, type ShellHookInfo } from './hooks-context.js';
import { describeProcess, describeResult } from './hooks-run-report.js';

export interface HooksTestOptions {
  forTool?: string;
  payloadFile?: string;
}

function usage(message: string): HermesError {
  return new HermesError(ERROR_CODES.USAGE, message);
}

/** The JSON object of --payload-file (wire names), or {} without one. */
function readPayloadFile(file: string | undefined): Record<string, unknown> {
  if (file === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliExit(1, `cannot read --payload-file ${file}: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CliExit(1, `--payload-file ${file} must hold a JSON object`);
  }
  return json as Record<string, unknown>;
}

interface ShellTestResult {
  hook: string;
  event: HookName;
  matcher: string | null;
  consent: ShellHookInfo['consent'];
  ran: boolean;
  /** `exit 0 in 12 ms`, `timed out in 300 ms`, `not run` */
  process: string;
  exitCode: number | null;
  durationMs: number | null;
  stdout: string;
  stderr: string;
  /** the parsed JSON output */
  response: unknown;
  /** the typed result the bus would get */
  result: unknown;
  problem: string | null;
}

function testResult(info: ShellHookInfo, report: ShellHookReport<HookName>): ShellTestResult {
  return {
    hook: `shell:${info.spec.command}`,
    event: info.spec.event,
    matcher: info.spec.matcher,
    consent: info.consent,
    ran: report.ran,
    process: describeProcess(report),
    exitCode: report.process?.exitCode ?? null,
    durationMs: report.process?.durationMs ?? null,
    stdout: report.process?.stdout ?? '',
    stderr: report.process?.stderr ?? '',
    response: report.response.json ?? null,
    result: report.response.result ?? null,
    problem: report.problem,
  };
}

function renderShellResult(r: ShellTestResult, toolName: string | null): string {
  const head = `${r.hook}  (${r.event}${r.matcher === null ? '' : `, matcher ${r.matcher}`}, consent: ${consentLabel(r.consent)})`;
  if (!r.ran) return `${head}\n  skipped: matcher ${r.matcher} does not match tool ${toolName}\n`;
  const lines = [head, `  ${r.process}`];
  if (r.stdout.trim() !== '') lines.push(`  stdout: ${r.stdout.trim()}`);
  if (r.stderr.trim() !== '') lines.push(`  stderr: ${r.stderr.trim()}`);
  lines.push(r.problem === null ? `  result: ${describeResult(r.event, r.result)}` : `  problem: ${r.problem}`);
  return `${lines.join('\n')}\n`;
}

async function testShellHooks(
  ctx: HooksContext,
  event: HookName,
  options: HooksTestOptions,
  json: boolean,
): Promise<void> {
  if (options.forTool !== undefined && !isToolEvent(event)) {
    process.stderr.write(`hermes: warning: --for-tool is ignored for ${event} (not a tool event)\n`);
  }
  const payload = syntheticPayload(event, {
    ...(options.forTool === undefined ? {} : { forTool: options.forTool }),
    overrides: readPayloadFile(options.payloadFile),
  });
  const toolName = isToolEvent(event) ? toolNameOf(payload) : null;
  const matching = ctx.shell.filter((info) => info.spec.event === event);
  const results: ShellTestResult[] = [];
  for (const info of matching) {
    const report: ShellHookReport<HookName> = await runShellHook(info.spec, event, payload, { cwd: ctx.cwd });
    results.push(testResult(info, report));
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else if (matching.length === 0) {
    process.stdout.write(`no shell hooks for ${event} in ${ctx.settings.paths.config}\n`);
  } else {
    process.stdout.write(results.map((r) => renderShellResult(r, toolName)).join('\n'));
  }
  if (results.some((r) => r.problem !== null)) throw new CliExit(1);
}

async function testGatewayEvent(
  ctx: HooksContext,
  event: GatewayEventType,
  options: HooksTestOptions,
  json: boolean,
): Promise<void> {
  const { testGatewayHooks, gatewayHookConsent, pendingReason } = await import('@hermes/gateway');
  const results = await testGatewayHooks(ctx.settings.paths.hooksDir, event, {
    importer: await createModuleImporter(pluginAliases()),
    logger: silentLogger,
    home: ctx.settings.home,
    context: readPayloadFile(options.payloadFile),
    // only what the gateway would load runs here: a hook nobody approved is never imported
    refuse: (spec) => {
      const { state } = gatewayHookConsent(ctx.allowlist, spec);
      if (state === 'approved' || ctx.autoAccept !== null) return null;
      return `not run: not approved (${pendingReason(state)}); review ${spec.dir}, then run \`hermes hooks approve ${spec.name}\``;
    },
  });
  if (json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else if (results.length === 0) {
    process.stdout.write(`no gateway hooks for ${event} in ${ctx.settings.paths.hooksDir}\n`);
  } else {
    for (const r of results) {
      process.stdout.write(
        `gateway:${r.hook}  (${event})\n  ${r.ok ? 'ok' : 'failed'} in ${Math.round(r.ms)} ms: ${r.detail}\n`,
      );
      for (const call of r.calls) process.stdout.write(`  would ${call}\n`);
    }
  }
  if (results.some((r) => !r.ok)) throw new CliExit(1);
}

/** Fires the hooks of EVENT once; exits 1 when one of them had a problem, 2 for an unknown event. */
export async function hooksTest(event: string, options: HooksTestOptions, global: GlobalOptions): Promise<void> {
  const json = global.json ?? false;
  if (isHookName(event)) {
    await testShellHooks(loadHooksContext(global), event, options, json);
    return;
  }
  if (isGatewayEventType(event)) {
    await testGatewayEvent(loadHooksContext(global), event, options, json);
    return;
  }
  const suggestion = closest(event, [...HOOK_NAMES, ...GATEWAY_EVENTS]);
  throw usage(
    `unknown event "${event}"${suggestion === null ? '' : `; did you mean "${suggestion}"?`} (plugin hook events: ${HOOK_NAMES.join(', ')}; gateway events: ${GATEWAY_EVENTS.join(', ')}, command:NAME)`,
  );
}
