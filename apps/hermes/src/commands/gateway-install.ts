/**
 * `hermes gateway install | uninstall [--dry-run] [--manager systemd|launchd]`: a systemd user unit
 * on Linux, a launchd agent on macOS; `--dry-run` prints the file and the commands instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, loadDotEnv, resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { HERMES_BIN } from '../app-paths.js';
import { CliExit } from '../cli-error.js';
import { writeDotEnvValue } from '../dotenv-write.js';
import type { GlobalOptions } from '../main.js';
import { systemdUserReachable } from '../service/manager-reachable.js';
import { launchdLabel, launchdPlist, serviceName, systemdUnit, type UnitInput } from '../service/service-unit.js';
import { chooseUnitEnv, servicePath, type UnitEnvChoice } from '../service/unit-env.js';

export type Manager = 'systemd' | 'launchd';

export interface InstallOptions {
  dryRun?: boolean;
  manager?: string;
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The service manager of this machine, or the one asked for; a clear error where there is none. */
export function pickManager(asked: string | undefined, dryRun: boolean): Manager {
  if (asked !== undefined) {
    if (asked !== 'systemd' && asked !== 'launchd') {
      throw new CliExit(EXIT.USAGE, `--manager: expected systemd or launchd, got "${asked}"`);
    }
    return asked;
  }
  if (process.platform === 'darwin') return 'launchd';
  if (process.platform === 'linux' && (dryRun || hasCommand('systemctl'))) return 'systemd';
  throw new CliExit(
    EXIT.ERROR,
    `no supported service manager here (systemd on Linux, launchd on macOS; this is ${process.platform}${process.platform === 'linux' ? ' without systemctl' : ''}): ` +
      'run `hermes gateway start` instead, or use the container (docker/README.md)',
  );
}

/** The unit for this profile; refuses (exit 78) a configuration `gateway run` would refuse. */
async function unitInput(options: GlobalOptions): Promise<{ input: UnitInput; home: string; env: UnitEnvChoice }> {
  const { root, home, profile } = resolveHome({
    env: process.env,
    ...(options.profile ? { profile: options.profile } : {}),
  });
  // what the service will see: the unit's variables over HERMES_HOME/.env
  const env = chooseUnitEnv(process.env);
  const serviceEnv: Record<string, string> = {
    ...loadDotEnv(home, {}).values,
    ...env.dotenv,
    ...env.unit,
    HERMES_HOME: root,
  };
  let config: ReturnType<typeof loadConfig>['config'];
  try {
    config = loadConfig({ home, env: serviceEnv }).config;
  } catch (err) {
    throw new CliExit(
      EXIT.CONFIG,
      `not installed: the service would not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    );
  }
  if (!config.model.default) {
    throw new CliExit(
      EXIT.CONFIG,
      `not installed: the service would not start: no model configured: set model.default in ${join(home, 'config.yaml')}, or export HERMES_INFERENCE_MODEL before \`hermes gateway install\``,
    );
  }
  const { isLoopback } = await import('@hermes/gateway');
  if (!isLoopback(config.gateway.host) && !serviceEnv.API_SERVER_KEY) {
    throw new CliExit(
      EXIT.CONFIG,
      `not installed: the service would not start: it would listen on ${config.gateway.host} without API_SERVER_KEY: set it, or keep gateway.host on 127.0.0.1`,
    );
  }
  return {
    home,
    env,
    input: {
      node: process.execPath,
      bin: HERMES_BIN,
      root,
      profile,
      drainTimeoutS: config.gateway.drain_timeout_s,
      path: servicePath(process.execPath, HERMES_BIN),
      env: env.unit,
    },
  };
}

/** The service installed for this profile, if any: start/stop/restart then go through its manager. */
export function installedService(
  profile: string | null,
): { manager: Manager; file: string; control: (verb: 'start' | 'stop' | 'restart') => string[] } | null {
  const unit = join(homedir(), '.config', 'systemd', 'user', `${serviceName(profile)}.service`);
  if (process.platform === 'linux' && existsSync(unit)) {
    return {
      manager: 'systemd',
      file: unit,
      control: (verb) => ['systemctl', '--user', verb, `${serviceName(profile)}.service`],
    };
  }
  const plist = join(homedir(), 'Library', 'LaunchAgents', `${launchdLabel(profile)}.plist`);
  if (process.platform === 'darwin' && existsSync(plist)) {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 501;
    const target = `gui/${uid}/${launchdLabel(profile)}`;
    return {
      manager: 'launchd',
      file: plist,
      control: (verb) =>
        verb === 'stop'
          ? ['launchctl', 'kill', 'SIGTERM', target]
          : ['launchctl', 'kickstart', ...(verb === 'restart' ? ['-k'] : []), target],
    };
  }
  return null;
}

function plan(manager: Manager, input: UnitInput): { file: string; content: string; commands: string[][] } {
  if (manager === 'systemd') {
    const name = serviceName(input.profile);
    return {
      file: join(homedir(), '.config', 'systemd', 'user', `${name}.service`),
      content: systemdUnit(input),
      commands: [
        ['systemctl', '--user', 'daemon-reload'],
        ['systemctl', '--user', 'enable', '--now', `${name}.service`],
      ],
    };
  }
  const label = launchdLabel(input.profile);
  const file = join(homedir(), 'Library', 'LaunchAgents', `${label}.plist`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 501;
  return { file, content: launchdPlist(input), commands: [['launchctl', 'bootstrap', `gui/${uid}`, file]] };
}

function run(command: string[]): void {
  const r = spawnSync(command[0] ?? '', command.slice(1), { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  // what the manager said goes inside Hermes' own message when it failed, never raw before it
  const lines = `${r.stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (r.status !== 0) {
    const said = lines.join('; ') || r.error?.message || `exit ${r.status ?? r.signal}`;
    throw new Error(`\`${command.join(' ')}\` failed: ${said}`);
  }
  for (const line of lines) process.stderr.write(`hermes: ${command[0]}: ${line}\n`);
}

function noSystemd(reason: string): CliExit {
  return new CliExit(
    EXIT.ERROR,
    `systemd cannot be used here (${reason}); nothing was installed: run \`hermes gateway start\` instead (or enable a user session: \`sudo loginctl enable-linger $USER\`, then log in again)`,
  );
}

/** `hermes gateway install`. */
export async function installCommand(opts: InstallOptions, options: GlobalOptions): Promise<void> {
  const manager = pickManager(opts.manager, opts.dryRun === true);
  const { input, home, env } = await unitInput(options);
  const { file, content, commands } = plan(manager, input);
  const secrets = Object.keys(env.dotenv);
  const dotenvPath = join(home, '.env');
  if (opts.dryRun) {
    process.stdout.write(`# ${file}\n${content}\n# then: ${commands.map((c) => c.join(' ')).join(' && ')}\n`);
    if (secrets.length > 0) process.stdout.write(`# and write ${secrets.join(', ')} into ${dotenvPath} (0600)\n`);
    return;
  }
  if (manager === 'systemd') {
    const reachable = systemdUserReachable();
    if (!reachable.ok) throw noSystemd(reachable.reason);
  }
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : null;
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  try {
    for (const command of commands) run(command);
  } catch (err) {
    // never leave a half-installed unit behind: start/stop would go through a manager that failed
    if (previous === null) rmSync(file, { force: true });
    else writeFileSync(file, previous);
    if (manager === 'systemd') spawnSync('systemctl', ['--user', 'daemon-reload'], { stdio: 'ignore' });
    throw new CliExit(
      EXIT.ERROR,
      `not installed (${file} ${previous === null ? 'removed again' : 'put back as it was'}): ${err instanceof Error ? err.message : String(err)}; run \`hermes gateway start\` instead`,
    );
  }
  for (const name of secrets) writeDotEnvValue(dotenvPath, name, env.dotenv[name] ?? '');
  if (secrets.length > 0) chmodSync(dotenvPath, 0o600);
  process.stdout.write(`installed ${file}\n`);
  if (/[\\/]_npx[\\/]/.test(HERMES_BIN)) {
    process.stdout.write(
      `note: hermes runs from npx's cache (${HERMES_BIN}), which npm may clean: for a lasting service install it (npm install -g, or a checkout) and run install from there\n`,
    );
  }
  const plain = Object.keys(env.unit);
  if (plain.length > 0) process.stdout.write(`in the unit: ${plain.join(', ')}\n`);
  if (secrets.length > 0) process.stdout.write(`in ${dotenvPath} (0600, not in the unit): ${secrets.join(', ')}\n`);
  if (manager === 'systemd') {
    process.stdout.write(
      `to keep it running after you log out: sudo loginctl enable-linger ${process.env.USER ?? '$USER'}\n`,
    );
  }
}

/** `hermes gateway uninstall`. */
export async function uninstallCommand(opts: InstallOptions, options: GlobalOptions): Promise<void> {
  const manager = pickManager(opts.manager, opts.dryRun === true);
  const { root, profile } = resolveHome({
    env: process.env,
    ...(options.profile ? { profile: options.profile } : {}),
  });
  const { file } = plan(manager, { node: '', bin: '', root, profile, drainTimeoutS: 30, path: '', env: {} });
  const commands =
    manager === 'systemd'
      ? [['systemctl', '--user', 'disable', '--now', `${serviceName(profile)}.service`]]
      : [['launchctl', 'bootout', `gui/${typeof process.getuid === 'function' ? process.getuid() : 501}`, file]];
  if (opts.dryRun) {
    process.stdout.write(`# would run: ${commands.map((c) => c.join(' ')).join(' && ')}\n# and remove ${file}\n`);
    return;
  }
  if (!existsSync(file)) throw new CliExit(EXIT.ERROR, `not installed: ${file} does not exist`);
  const reachable = manager === 'systemd' ? systemdUserReachable() : { ok: true as const };
  if (reachable.ok) {
    for (const command of commands) {
      try {
        execFileSync(command[0] ?? '', command.slice(1), { stdio: 'inherit' });
      } catch {
        // already stopped or unloaded: removing the file is what matters
      }
    }
  }
  rmSync(file, { force: true });
  if (manager === 'systemd' && reachable.ok) spawnSync('systemctl', ['--user', 'daemon-reload'], { stdio: 'ignore' });
  process.stdout.write(`removed ${file}\n`);
  if (!reachable.ok) {
    process.stdout.write(
      `note: ${reachable.reason}: the service manager could not be told; a gateway it started (if any) is stopped with \`hermes gateway stop\`\n`,
    );
  }
}
