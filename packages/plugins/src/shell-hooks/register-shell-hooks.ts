/**
 * Registers the `hooks:` block of config.yaml on the hook bus, each hook as owner
 * `shell:<command>`, after consent: allowlisted with the same script content, accepted by an
 * escape hatch, or approved at an interactive prompt. Call it after plugins are loaded, so
 * plugin block decisions win ties.
 */
import { type HookCallback, type HookName, type Logger, silentLogger } from '@hermes/protocol';
import type { HookBus } from '../hook-bus.js';
import { type HookOwner, ownerLabel } from '../hook-owner.js';
import { type ConsentVia, ShellHookAllowlist } from './allowlist.js';
import { CONSENT_HINT, type ConsentPrompt, type ConsentState, consentState } from './consent.js';
import { readShellHooks, type ShellHookSpec, type ShellHooksConfig } from './read-shell-hooks.js';
import { type RunShellHookOptions, runShellHook } from './run-shell-hook.js';
import { type HookScript, hookScript } from './script-file.js';

/** Extra time the bus allows past a hook's own timeout (the runner kills the process first). */
export const SHELL_HOOK_BUS_GRACE_MS = 2_000;

export interface RegisterShellHooksOptions {
  bus: HookBus;
  /** config.hooks */
  hooks: ShellHooksConfig;
  /** config.yaml's path, for warnings */
  configPath: string;
  /** HERMES_HOME/shell-hooks-allowlist.json */
  allowlistPath: string;
  /** the user's home directory, for `~` */
  userHome: string;
  /** the agent's working directory */
  cwd: string;
  /** the escape hatch in force (see `autoAcceptVia`), or null */
  autoAccept: ConsentVia | null;
  /** asks the user; null when nobody can answer (gateway, no TTY): such hooks are skipped */
  prompt: ConsentPrompt | null;
  /** process failures, timeouts and invalid output at run time */
  logger?: Logger;
  /** registration-time warnings (bad entries, missing consent); default: logger.warn */
  warn?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

export interface RegisteredShellHook {
  spec: ShellHookSpec;
  script: HookScript | null;
  /** 'allowlist' when consent was already on file */
  consent: ConsentVia | 'allowlist';
  unregister: () => void;
}

export interface SkippedShellHook {
  spec: ShellHookSpec;
  script: HookScript | null;
  state: Exclude<ConsentState, 'allowed'>;
  /** true when the prompt was shown and the user said no */
  declined: boolean;
}

export interface RegisterShellHooksResult {
  registered: RegisteredShellHook[];
  skipped: SkippedShellHook[];
  warnings: string[];
}

/** The bus owner of a shell hook: `shell:<command as written>`. */
export function shellHookOwner(spec: { command: string }): HookOwner {
  return { source: 'shell', name: spec.command };
}

/** The bus callback of one shell hook: runs it, logs problems naming the command, returns the typed result. */
export function shellHookCallback<K extends HookName>(
  spec: ShellHookSpec,
  event: K,
  options: RunShellHookOptions & { logger: Logger },
): HookCallback<K> {
  const label = ownerLabel(shellHookOwner(spec));
  return async (payload) => {
    const report = await runShellHook(spec, event, payload, options);
    if (report.problem !== null) {
      options.logger.warn(
        { hook: event, owner: label, command: spec.command, stderr: report.process?.stderr.slice(0, 2000) },
        `shell hook ${event} ${label} ${report.problem}; ignored`,
      );
    }
    return report.response.result;
  };
}

function describeSkip(spec: ShellHookSpec, state: Exclude<ConsentState, 'allowed'>, script: HookScript | null): string {
  const what =
    state === 'script_changed'
      ? `its script ${script?.path ?? '(missing)'} changed since it was allowed`
      : 'it has not been allowed yet';
  return `shell hook ${spec.event} "${spec.command}" not registered: ${what}; ${CONSENT_HINT}`;
}

/** Reads, consents and registers every shell hook; resolves with what was registered and skipped. */
export async function registerShellHooks(options: RegisterShellHooksOptions): Promise<RegisterShellHooksResult> {
  const logger = options.logger ?? silentLogger;
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    if (options.warn) options.warn(message);
    else logger.warn({ component: 'shell-hooks' }, message);
  };
  const { hooks, warnings: configWarnings } = readShellHooks(options.hooks, {
    configPath: options.configPath,
    userHome: options.userHome,
  });
  for (const w of configWarnings) warn(w);
  const result: RegisterShellHooksResult = { registered: [], skipped: [], warnings };
  if (hooks.length === 0) return result;

  const { allowlist, problem } = ShellHookAllowlist.load(options.allowlistPath);
  if (problem !== null) warn(problem);
  const now = options.now ?? (() => new Date());
  // written at once, so an approval survives a later Ctrl+C at the next prompt
  const approve = (spec: ShellHookSpec, script: HookScript | null, via: ConsentVia) => {
    allowlist.upsert({
      kind: 'shell',
      event: spec.event,
      command: spec.command,
      script: script?.path ?? null,
      sha256: script?.sha256 ?? null,
      approved_at: now().toISOString(),
      via,
    });
    try {
      allowlist.save();
    } catch (error) {
      // the hook stays registered for this run; consent is asked again next time
      warn(`cannot write ${allowlist.path}: ${(error as Error).message}`);
    }
  };

  for (const spec of hooks) {
    const script = hookScript(spec.argv, options.cwd);
    const state = consentState(allowlist, spec, script);
    let consent: ConsentVia | 'allowlist';
    if (state === 'allowed') {
      consent = 'allowlist';
    } else if (options.autoAccept !== null) {
      consent = options.autoAccept;
      approve(spec, script, consent);
    } else if (options.prompt !== null) {
      const yes = await options.prompt({
        event: spec.event,
        command: spec.command,
        matcher: spec.matcher,
        script,
        state,
      });
      if (!yes) {
        result.skipped.push({ spec, script, state, declined: true });
        warn(`shell hook ${spec.event} "${spec.command}" not registered: not allowed at the prompt`);
        continue;
      }
      consent = 'prompt';
      approve(spec, script, consent);
    } else {
      result.skipped.push({ spec, script, state, declined: false });
      warn(describeSkip(spec, state, script));
      continue;
    }
    const callback = shellHookCallback(spec, spec.event, {
      cwd: options.cwd,
      logger,
      consentedScript: script,
      ...(options.env ? { env: options.env } : {}),
    });
    const unregister = options.bus.register(spec.event, callback, shellHookOwner(spec), {
      timeoutMs: spec.timeoutS * 1000 + SHELL_HOOK_BUS_GRACE_MS,
    });
    result.registered.push({ spec, script, consent, unregister });
  }

  return result;
}
