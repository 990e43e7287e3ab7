/**
 * `hermes hooks doctor [--json]`: per shell hook of config.yaml: the program exists and is
 * executable, consent and script drift, and one run with the synthetic payload (output JSON
 * validity, time); per gateway hook of HERMES_HOME/hooks: approved or pending (never run here). A hook runs here only if the agent would run it (allowed, or an escape hatch
 * is in force), so doctor is safe after pulling a shared config. Exit 1 on any problem.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CONSENT_HINT,
  findOnPath,
  isExecutable,
  runShellHook,
  type ShellHookReport,
  syntheticPayload,
} from '@hermes/plugins';
import type { HookName } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { type HooksContext, loadHooksContext, type ShellHookInfo } from './hooks-context.js';
import { type GatewayDoctorReport, gatewayDoctor, renderGatewayDoctor } from './hooks-doctor-gateway.js';
import { describeProcess, describeResult } from './hooks-run-report.js';

export interface DoctorCheck {
  check: 'program' | 'consent' | 'run';
  ok: boolean;
  detail: string;
}

export interface DoctorHookReport {
  event: string;
  command: string;
  ok: boolean;
  checks: DoctorCheck[];
}

export interface DoctorReport {
  ok: boolean;
  /** problems with config entries or the allowlist file (each one a problem) */
  config: string[];
  hooks: DoctorHookReport[];
  /** the gateway hooks of HERMES_HOME/hooks: consent (a pending hook is a problem) */
  gateway: GatewayDoctorReport[];
}

const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 12) : 'none');

function programCheck(info: ShellHookInfo, cwd: string): DoctorCheck {
  const program = info.spec.argv[0] ?? '';
  if (program.includes('/')) {
    const path = resolve(cwd, program);
    if (!existsSync(path)) return { check: 'program', ok: false, detail: `${path} does not exist` };
    if (!isExecutable(path))
      return { check: 'program', ok: false, detail: `${path} is not executable (chmod +x ${path})` };
    return { check: 'program', ok: true, detail: `${path} exists and is executable` };
  }
  const found = findOnPath(program);
  if (found === null) return { check: 'program', ok: false, detail: `${program} is not found on PATH` };
  const script = info.script === null ? '' : `; runs ${info.script.path}`;
  return { check: 'program', ok: true, detail: `${program} is ${found}${script}` };
}

function consentCheck(info: ShellHookInfo, ctx: HooksContext): DoctorCheck {
  const auto = ctx.autoAccept === null ? '' : ` (${ctx.autoAccept} is in force: accepted on the next run)`;
  switch (info.consent) {
    case 'allowed': {
      const via = info.approval ? ` on ${info.approval.approved_at} via ${info.approval.via}` : '';
      const bound =
        info.script === null
          ? 'no script file; bound to the command'
          : `script sha256 ${short(info.script.sha256)} unchanged`;
      return { check: 'consent', ok: true, detail: `allowed${via}; ${bound}` };
    }
    case 'not_allowed':
      return {
        check: 'consent',
        ok: ctx.autoAccept !== null,
        detail: `not allowed yet${auto || `: ${CONSENT_HINT}`}`,
      };
    case 'script_changed':
      return {
        check: 'consent',
        ok: ctx.autoAccept !== null,
        detail: `script drift: ${info.script?.path ?? info.approval?.script ?? 'the script'} has sha256 ${short(info.script?.sha256)}, allowed with ${short(info.approval?.sha256)} on ${info.approval?.approved_at ?? '?'}${auto || '; the hook is skipped until it is allowed again'}`,
      };
  }
}

async function runCheck(info: ShellHookInfo, ctx: HooksContext): Promise<DoctorCheck> {
  const event: HookName = info.spec.event;
  // the matcher is bypassed: the point is to run the script once
  const spec = { ...info.spec, matcherRegex: null };
  const report: ShellHookReport<HookName> = await runShellHook(spec, event, syntheticPayload(event), { cwd: ctx.cwd });
  const how = describeProcess(report);
  if (report.problem !== null) return { check: 'run', ok: false, detail: `${how}: ${report.problem}` };
  const output = report.process?.stdout.trim() === '' ? 'no output' : 'valid JSON';
  return { check: 'run', ok: true, detail: `${how}, ${output}; ${describeResult(event, report.response.result)}` };
}

async function checkHook(info: ShellHookInfo, ctx: HooksContext): Promise<DoctorHookReport> {
  const checks = [programCheck(info, ctx.cwd), consentCheck(info, ctx)];
  const runnable = info.consent === 'allowed' || ctx.autoAccept !== null;
  if (!checks[0]?.ok) checks.push({ check: 'run', ok: false, detail: 'not run: the program is missing' });
  else if (!runnable) checks.push({ check: 'run', ok: false, detail: 'not run: needs consent first' });
  else checks.push(await runCheck(info, ctx));
  return { event: info.spec.event, command: info.spec.command, ok: checks.every((c) => c.ok), checks };
}

function render(report: DoctorReport, ctx: HooksContext): string {
  const lines: string[] = [];
  for (const w of report.config) lines.push(`✗ config: ${w}`);
  if (report.hooks.length === 0) lines.push(`no shell hooks in ${ctx.settings.paths.config}`);
  for (const h of report.hooks) {
    lines.push(`${h.ok ? '✓' : '✗'} ${h.event}  ${h.command}`);
    for (const c of h.checks) lines.push(`    ${c.ok ? '✓' : '✗'} ${c.check}: ${c.detail}`);
  }
  lines.push(...renderGatewayDoctor(report.gateway));
  return `${lines.join('\n')}\n`;
}

/** Checks every shell hook; prints the report; exits 1 when anything is wrong. */
export async function hooksDoctor(options: GlobalOptions): Promise<void> {
  const ctx = loadHooksContext(options, true);
  const hooks: DoctorHookReport[] = [];
  for (const info of ctx.shell) hooks.push(await checkHook(info, ctx));
  const gateway = await gatewayDoctor(ctx);
  const report: DoctorReport = {
    ok: ctx.configWarnings.length === 0 && hooks.every((h) => h.ok) && gateway.every((g) => g.ok),
    config: ctx.configWarnings,
    hooks,
    gateway,
  };
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : render(report, ctx));
  if (!report.ok) throw new CliExit(1);
}
