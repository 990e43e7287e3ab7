/**
 * `hermes gateway install | uninstall [--dry-run] [--manager systemd|launchd]`: a systemd user unit
 * on Linux, a launchd agent on macOS; `--dry-run` prints the file and the commands instead.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { launchdLabel, launchdPlist, serviceName, systemdUnit, type UnitInput } from '../service/service-unit.js';

export type Manager = 'systemd' | 'launchd';

export interface InstallOptions {
  dryRun?: boolean;
  manager?: string;
}

const HERMES_BIN = fileURLToPath(new URL('../../bin/hermes.js', import.meta.url));

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

function unitInput(options: GlobalOptions): UnitInput {
  const { root, home, profile } = resolveHome({
    env: process.env,
    ...(options.profile ? { profile: options.profile } : {}),
  });
  let drain = 30;
  try {
    drain = loadConfig({ home, env: process.env }).config.gateway.drain_timeout_s;
  } catch {
    // an invalid config is reported by the gateway itself (exit 78); the unit still installs
  }
  return {
    node: process.execPath,
    bin: HERMES_BIN,
    root,
    profile,
    drainTimeoutS: drain,
    path: process.env.PATH ?? '/usr/bin:/bin',
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

/** `hermes gateway install`. */
export async function installCommand(opts: InstallOptions, options: GlobalOptions): Promise<void> {
  const manager = pickManager(opts.manager, opts.dryRun === true);
  const input = unitInput(options);
  const { file, content, commands } = plan(manager, input);
  if (opts.dryRun) {
    process.stdout.write(`# ${file}\n${content}\n# then: ${commands.map((c) => c.join(' ')).join(' && ')}\n`);
    return;
  }
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  for (const command of commands) execFileSync(command[0] ?? '', command.slice(1), { stdio: 'inherit' });
  process.stdout.write(`installed ${file}\n`);
  if (manager === 'systemd') {
    process.stdout.write(
      `to keep it running after you log out: sudo loginctl enable-linger ${process.env.USER ?? '$USER'}\n`,
    );
  }
}

/** `hermes gateway uninstall`. */
export async function uninstallCommand(opts: InstallOptions, options: GlobalOptions): Promise<void> {
  const manager = pickManager(opts.manager, opts.dryRun === true);
  const input = unitInput(options);
  const { file } = plan(manager, input);
  const commands =
    manager === 'systemd'
      ? [['systemctl', '--user', 'disable', '--now', `${serviceName(input.profile)}.service`]]
      : [['launchctl', 'bootout', `gui/${typeof process.getuid === 'function' ? process.getuid() : 501}`, file]];
  if (opts.dryRun) {
    process.stdout.write(`# would run: ${commands.map((c) => c.join(' ')).join(' && ')}\n# and remove ${file}\n`);
    return;
  }
  if (!existsSync(file)) throw new CliExit(EXIT.ERROR, `not installed: ${file} does not exist`);
  for (const command of commands) {
    try {
      execFileSync(command[0] ?? '', command.slice(1), { stdio: 'inherit' });
    } catch {
      // already stopped or unloaded: removing the file is what matters
    }
  }
  rmSync(file, { force: true });
  if (manager === 'systemd') execFileSync('systemctl', ['--user', 'daemon-reload'], { stdio: 'ignore' });
  process.stdout.write(`removed ${file}\n`);
}
