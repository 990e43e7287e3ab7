/** `hermes doctor`: checks config, state, model reachability and plugins; exit 1 when any check fails. */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { probeSandbox } from '@hermes/agent';
import {
  applyDotEnv,
  configPaths,
  type HermesConfig,
  homeModeWarning,
  loadConfig,
  loadDotEnv,
  makePrivateDir,
  resolveHome,
} from '@hermes/config';
import { discoverGatewayHooks, gatewayHookConsent, pendingReason } from '@hermes/gateway';
import { allowlistPath, autoAcceptVia, ShellHookAllowlist } from '@hermes/plugins';
import { openStore } from '@hermes/store';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { pluginRegistrations } from '../plugin-registrations.js';
import { openStateStore } from '../state-store.js';
import { pendingLine, trustedAutoAcceptVia, trustGate } from '../trust/trust-gate.js';
import { probeModel } from './doctor-model.js';
import { probePlatform, probesPlatform } from './doctor-platforms.js';
import { providerConfig } from './doctor-provider.js';
import { selfCheck, selfCheckingFactory } from './doctor-self-check.js';
import { gatewayStatus } from './gateway-service.js';
import { providerEntries } from './model-list.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
}

/** tools.terminal.backend: the sandbox must start (else the terminal tool refuses every command). */
async function terminalBackend(config: HermesConfig): Promise<Check> {
  const { backend, network } = config.tools.terminal;
  if (backend === 'local') {
    return {
      name: 'terminal',
      status: 'ok',
      detail: 'local backend (commands are not sandboxed; sandbox is recommended for chat platforms)',
    };
  }
  const probe = await probeSandbox();
  return probe.ok
    ? {
        name: 'terminal',
        status: 'ok',
        detail: `sandbox backend (bubblewrap works; network ${network ? 'on' : 'off'})`,
      }
    : {
        name: 'terminal',
        status: 'fail',
        detail: `sandbox backend configured but ${probe.error}: the terminal tool refuses every command`,
      };
}

/** Runs every check and prints the report. */
export async function runDoctor(options: GlobalOptions): Promise<void> {
  const checks: Check[] = [];
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const paths = configPaths(home);
  try {
    makePrivateDir(home);
    accessSync(home, constants.W_OK);
    checks.push({ name: 'home', status: 'ok', detail: home });
    const open = homeModeWarning(home);
    if (open) checks.push({ name: 'home', status: 'warn', detail: open });
  } catch (err) {
    checks.push({ name: 'home', status: 'fail', detail: `${home} is not writable: ${(err as Error).message}` });
  }
  const dotenv = loadDotEnv(home, process.env).values;
  applyDotEnv(dotenv, process.env);
  let config: HermesConfig | null = null;
  try {
    const loaded = loadConfig({ home, env: process.env });
    config = loaded.config;
    const where = loaded.exists ? paths.config : `${paths.config} (absent: defaults)`;
    checks.push({ name: 'config', status: loaded.warnings.length > 0 ? 'warn' : 'ok', detail: where });
    for (const w of loaded.warnings) checks.push({ name: 'config', status: 'warn', detail: w.message });
  } catch (err) {
    checks.push({ name: 'config', status: 'fail', detail: (err as Error).message });
  }
  try {
    if (config?.state.backend === 'postgres') {
      // the database state.backend names (HERMES_DATABASE_URL), its password masked
      const { store } = await openStateStore({ config, paths, env: process.env }, { maxConnections: 1 });
      try {
        checks.push({
          name: 'state',
          status: 'ok',
          detail: `${store.location} (schema v${await store.schemaVersion()})`,
        });
      } finally {
        await store.close();
      }
    } else {
      const store = openStore(paths.stateDb);
      checks.push({ name: 'state', status: 'ok', detail: `${paths.stateDb} (schema v${store.schemaVersion()})` });
      store.close();
    }
  } catch (err) {
    checks.push({ name: 'state', status: 'fail', detail: (err as Error).message });
  }
  if (config) {
    const { registries, records } = await pluginRegistrations({ home, config, env: process.env });
    // the model of model.provider (or --provider): its profile's endpoint, key and default model
    const probed = providerConfig(config, registries, options);
    if (probed.ok) checks.push(...(await probeModel(probed.config)));
    else checks.push({ name: 'model', status: 'fail', detail: probed.error });
    checks.push(await terminalBackend(config));
    const enabled = records.filter((r) => r.state === 'enabled').map((r) => r.key);
    checks.push({
      name: 'plugins',
      status: 'ok',
      detail: `${enabled.length} enabled${enabled.length ? `: ${enabled.join(', ')}` : ''}`,
    });
    // bundled platforms and backends (web providers) load on their credentials: missing ones are "not configured"
    const isPlatform = (r: (typeof records)[number]) =>
      r.source === 'bundled' && (r.manifest?.kind === 'platform' || r.manifest?.kind === 'backend');
    const notLoaded = (x: (typeof records)[number]) =>
      ['failed', 'env_missing', 'deps_missing', 'not_approved'].includes(x.state);
    for (const r of records.filter((x) => notLoaded(x) && !isPlatform(x))) {
      checks.push({
        name: `plugin ${r.key}`,
        status: r.state === 'failed' ? 'fail' : 'warn',
        detail: r.error ?? r.state,
      });
    }
    // model providers: whether their key is set, as `hermes model list` says (the active one's answer is the model check)
    const active = options.provider ?? config.model.provider;
    const providers = new Map(providerEntries(config, process.env, registries, active).map((e) => [e.plugin, e]));
    // platforms: on when their token is set (then asked once who the token is); a missing token is simply "not configured"
    for (const r of records.filter(isPlatform)) {
      const name = `${r.manifest?.kind === 'backend' ? r.key : (r.manifest?.name ?? r.key)}`;
      const provider = providers.get(r.key);
      // a platform that checks its own credentials (email: IMAP and SMTP logins)
      const own =
        r.state === 'enabled'
          ? selfCheckingFactory(registries.platforms.get(r.manifest?.name ?? '')?.factory)
          : undefined;
      if (r.state === 'enabled' && provider !== undefined) {
        const key =
          provider.api_key_env === null
            ? 'no key needed'
            : `${provider.api_key_env}: ${provider.key_set ? 'set' : 'not set'}`;
        checks.push({
          name: `${r.manifest?.kind} ${name}`,
          status: 'ok',
          detail: `model provider ${provider.name}${provider.active ? ' (active)' : ''}, ${key}`,
        });
      } else if (own !== undefined && r.manifest?.kind === 'platform') {
        checks.push(await selfCheck(name, own, config, process.env));
      } else if (r.state === 'enabled' && r.manifest?.kind === 'platform' && probesPlatform(r.manifest.name)) {
        const probed = await probePlatform(r.manifest.name, config, process.env);
        checks.push(probed ?? { name: `platform ${name}`, status: 'ok', detail: 'configured' });
      } else if (r.state === 'enabled')
        checks.push({ name: `${r.manifest?.kind} ${name}`, status: 'ok', detail: 'configured' });
      else if (r.state === 'env_missing')
        checks.push({ name: `${r.manifest?.kind} ${name}`, status: 'ok', detail: `not configured (${r.error})` });
      else checks.push({ name: `${r.manifest?.kind} ${name}`, status: 'fail', detail: r.error ?? r.state });
    }
  }
  const hooks = discoverGatewayHooks(join(home, 'hooks'));
  checks.push({
    name: 'gateway hooks',
    status: 'ok',
    detail: `${hooks.hooks.length} in ${join(home, 'hooks')}${hooks.hooks.length ? `: ${hooks.hooks.map((h) => h.name).join(', ')}` : ''}`,
  });
  for (const s of hooks.skipped) checks.push({ name: 'gateway hooks', status: 'warn', detail: s.reason });
  const { allowlist } = ShellHookAllowlist.load(allowlistPath(home));
  // hooks_auto_accept and a HERMES_ACCEPT_HOOKS from .env count only once approved (hermes trust)
  const accept = config
    ? trustedAutoAcceptVia({ config, dotenv, env: process.env, home }, options.acceptHooks ?? false)
    : autoAcceptVia({ flag: options.acceptHooks ?? false, env: process.env, config: false });
  for (const h of hooks.hooks) {
    const { state } = gatewayHookConsent(allowlist, h);
    if (state === 'approved') continue;
    const next =
      accept === null
        ? `not loaded by the gateway; review ${h.dir}, then run \`hermes hooks approve ${h.name}\``
        : `${accept} is in force: approved at the next gateway start`;
    checks.push({
      name: 'gateway hooks',
      status: 'warn',
      detail: `${h.name} pending (${pendingReason(state)}): ${next}`,
    });
  }
  if (config) {
    // code-loading config the gateway leaves out until the operator approves it (hermes trust)
    const gate = trustGate({ home, profile: null, paths, config, dotenv, env: process.env });
    for (const w of gate.warnings) checks.push({ name: 'trust', status: 'warn', detail: w });
    for (const p of gate.pending) checks.push({ name: 'trust', status: 'warn', detail: pendingLine(p) });
    if (gate.pending.length === 0 && gate.warnings.length === 0)
      checks.push({ name: 'trust', status: 'ok', detail: 'nothing pending approval (hermes trust list)' });
  }
  const service = await gatewayStatus(home);
  checks.push(
    service.running
      ? {
          name: 'gateway',
          status: service.health === 'ok' ? 'ok' : 'warn',
          detail: `running, pid ${service.pid}, ${service.url ?? 'not listening yet'}, health ${service.health}`,
        }
      : {
          name: 'gateway',
          status: service.stale_lock ? 'warn' : 'ok',
          detail: service.stale_lock
            ? 'not running (a stale lock is left; the next start takes it over)'
            : 'not running',
        },
  );
  const failed = checks.some((c) => c.status === 'fail');
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ok: !failed, checks }, null, 2)}\n`);
  } else {
    const mark = { ok: '✓', warn: '!', fail: '✗' } as const;
    for (const c of checks) process.stdout.write(`${mark[c.status]} ${c.name}: ${c.detail}\n`);
  }
  if (failed) throw new CliExit(1);
}
