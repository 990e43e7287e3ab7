// The chaos run's HERMES_HOME: config.yaml (all three platforms, short timeouts, queue mode), a
// plugin whose hooks hang while the run says so, a gateway hook that throws while the run says
// so, and the control file both read. Each hang or throw is appended to an effects log, so the
// report counts what the faults really did.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { trustHome } from '../helpers/run-hermes.js';

export const CONTROL_FILE = 'chaos-control.json';
export const EFFECTS_FILE = 'chaos-effects.log';
export const PLUGIN_NAME = 'chaos-hooks';
export const GATEWAY_HOOK_NAME = 'chaos-thrower';
/** the plugin hooks that hang during a hang window: one before dispatch, two around the turn */
export const HANGING_HOOKS = ['pre_gateway_dispatch', 'pre_llm_call', 'post_llm_call'] as const;
/** the gateway events the throwing hook subscribes to */
export const THROWING_EVENTS = ['gateway:startup', 'session:start', 'agent:start', 'agent:end'] as const;

/** Timeouts the run relies on (they bound what each fault can cost). */
export const SETTINGS = {
  /** the model client gives up on a request after this, then retries */
  modelTimeoutS: 2,
  /** model retries per step: more than the failures the run injects into one message */
  apiMaxRetries: 4,
  /** a hanging plugin hook is skipped after this */
  pluginHookTimeoutMs: 400,
  /** a graceful stop lets running turns finish for this long */
  drainTimeoutS: 3,
  maxConcurrentRuns: 16,
} as const;

/** streaming mode: the shortest gap between two edits in a chat */
export const STREAM_INTERVAL_MS = 150;

export interface ChaosControl {
  /** plugin hooks hang until this time (ms since the epoch) */
  hangUntil: number;
  /** the gateway hook throws until this time */
  throwUntil: number;
}

const PLUGIN_YAML = `name: ${PLUGIN_NAME}
version: 1.0.0
description: hooks that hang while the chaos run asks them to
provides_hooks:
${HANGING_HOOKS.map((h) => `  - ${h}`).join('\n')}
`;

// plain JavaScript semantics (loaded through jiti, no type check): reads the control file per call
const PLUGIN_SOURCE = `import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HOOKS = ${JSON.stringify(HANGING_HOOKS)};

export function register(ctx) {
  const home = process.env.HERMES_HOME;
  const hanging = () => {
    try {
      return Date.now() < JSON.parse(readFileSync(join(home, '${CONTROL_FILE}'), 'utf8')).hangUntil;
    } catch {
      return false;
    }
  };
  for (const hook of HOOKS) {
    ctx.registerHook(hook, () => {
      if (!hanging()) return undefined;
      appendFileSync(join(home, '${EFFECTS_FILE}'), 'hang ' + hook + '\\n');
      return new Promise(() => {});
    });
  }
}
`;

const HOOK_YAML = `name: ${GATEWAY_HOOK_NAME}
description: throws while the chaos run asks it to
events:
${THROWING_EVENTS.map((e) => `  - "${e}"`).join('\n')}
`;

const HOOK_SOURCE = `import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function handle(event, _context, hermes) {
  let control = { throwUntil: 0 };
  try {
    control = JSON.parse(readFileSync(join(hermes.home, '${CONTROL_FILE}'), 'utf8'));
  } catch {
    return;
  }
  if (Date.now() >= control.throwUntil) return;
  appendFileSync(join(hermes.home, '${EFFECTS_FILE}'), 'throw ' + event + '\\n');
  throw new Error('chaos: the gateway hook failed on ' + event);
}
`;

/** Writes config.yaml, the plugin, the gateway hook and an idle control file into `home`. */
export function prepareHome(
  home: string,
  platforms: Record<string, Record<string, unknown>>,
  options: { streaming?: boolean; cluster?: { failoverS: number } } = {},
): void {
  const config = {
    // cluster mode (CHAOS_CLUSTER): every instance on the PostgreSQL database at HERMES_DATABASE_URL
    ...(options.cluster ? { state: { backend: 'postgres' } } : {}),
    model: { timeout_s: SETTINGS.modelTimeoutS },
    agent: { api_max_retries: SETTINGS.apiMaxRetries },
    // a user's follow-up waits for the answer before it instead of cutting it off
    display: {
      busy_input_mode: 'queue',
      ...(options.streaming ? { streaming: true, stream_interval_ms: STREAM_INTERVAL_MS } : {}),
    },
    plugins: { enabled: [PLUGIN_NAME], hook_timeout_ms: SETTINGS.pluginHookTimeoutMs },
    // the gateway hook below loads without `hermes hooks approve`
    hooks_auto_accept: true,
    gateway: {
      ...(options.cluster ? { cluster: { failover_s: options.cluster.failoverS } } : {}),
      drain_timeout_s: SETTINGS.drainTimeoutS,
      max_concurrent_runs: SETTINGS.maxConcurrentRuns,
      hook_timeout_s: 1,
      // batch_ms as shipped: the chaos messages are short, and only a message long enough to be a
      // cut part of a paste opens a batch, so each is its own turn (the ledger wants one reply each)
      platforms,
    },
  };
  writeFileSync(join(home, 'config.yaml'), stringify(config));
  const plugin = join(home, 'plugins', PLUGIN_NAME);
  mkdirSync(plugin, { recursive: true });
  writeFileSync(join(plugin, 'plugin.yaml'), PLUGIN_YAML);
  writeFileSync(join(plugin, 'index.mjs'), PLUGIN_SOURCE);
  const hook = join(home, 'hooks', GATEWAY_HOOK_NAME);
  mkdirSync(hook, { recursive: true });
  writeFileSync(join(hook, 'HOOK.yaml'), HOOK_YAML);
  writeFileSync(join(hook, 'handler.mjs'), HOOK_SOURCE);
  writeControl(home, { hangUntil: 0, throwUntil: 0 });
  // the operator's consent for the plugin and for hooks_auto_accept itself (docs/security.md)
  trustHome(home);
}

/** Replaces the control file atomically (the plugin and hook read it on every call). */
export function writeControl(home: string, control: ChaosControl): void {
  const tmp = join(home, `${CONTROL_FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(control));
  renameSync(tmp, join(home, CONTROL_FILE));
}

export function readControl(home: string): ChaosControl {
  return JSON.parse(readFileSync(join(home, CONTROL_FILE), 'utf8')) as ChaosControl;
}

/** What the hooks did: hangs per plugin hook and throws per gateway event. */
export function readEffects(home: string): { hangs: number; throws: number } {
  const file = join(home, EFFECTS_FILE);
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  return {
    hangs: lines.filter((l) => l.startsWith('hang ')).length,
    throws: lines.filter((l) => l.startsWith('throw ')).length,
  };
}
