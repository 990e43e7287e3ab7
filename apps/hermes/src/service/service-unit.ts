/**
 * The service definitions `hermes gateway install` writes: a systemd user unit (Linux) or a
 * launchd agent (macOS). Both restart the gateway when it fails (systemd never on exit 78, invalid
 * configuration; launchd cannot filter exit codes, so it throttles restarts to one per 30 s), give
 * it longer than the drain timeout to stop, and run `hermes gateway run` with HERMES_HOME set and
 * the launcher's process-start settings (launch-settings.ts: node runs the bin, so its first two lines do not apply).
 */
import { LAUNCH_ENV, LAUNCH_NODE_FLAGS } from './launch-settings.js';

export interface UnitInput {
  /** absolute path of node */
  node: string;
  /** absolute path of the hermes bin script */
  bin: string;
  /** HERMES_HOME root */
  root: string;
  profile: string | null;
  /** gateway.drain_timeout_s */
  drainTimeoutS: number;
  /** node's folder, hermes' folder and the system folders, so hooks and tools find their programs */
  path: string;
  /** the configuration variables set when it was installed (model settings, overrides); secrets go to .env */
  env: Readonly<Record<string, string>>;
}

/** Seconds a service manager waits after SIGTERM beyond the drain timeout before it kills. */
export const STOP_MARGIN_S = 30;
/** The unit/label name: `hermes-gateway` or `hermes-gateway-<profile>`. */
export const serviceName = (profile: string | null): string =>
  profile ? `hermes-gateway-${profile}` : 'hermes-gateway';
export const launchdLabel = (profile: string | null): string =>
  profile ? `ai.hermes.gateway.${profile}` : 'ai.hermes.gateway';

function args(input: UnitInput): string[] {
  return [
    input.node,
    ...LAUNCH_NODE_FLAGS,
    input.bin,
    ...(input.profile ? ['--profile', input.profile] : []),
    'gateway',
    'run',
    '--replace',
  ];
}

/** The unit's own variables, then the launcher's, then the configuration variables set when it was installed. */
function unitEnv(input: UnitInput): [string, string][] {
  return [
    ['HERMES_HOME', input.root],
    ['PATH', input.path],
    ...Object.entries(LAUNCH_ENV),
    ...Object.entries(input.env),
  ];
}

/** systemd quoting for ExecStart words and Environment values; `%` doubled (systemd expands `%x` specifiers). */
function q(raw: string): string {
  const word = raw.replace(/%/g, '%%');
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `"${word.replace(/(["\\])/g, '\\$1')}"`;
}

/** The systemd user unit (`~/.config/systemd/user/<name>.service`). */
export function systemdUnit(input: UnitInput): string {
  return `[Unit]
Description=Hermes Gateway${input.profile ? ` (profile ${input.profile})` : ''}
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart=${args(input).map(q).join(' ')}
${unitEnv(input)
  .map(([k, v]) => `Environment=${q(`${k}=${v}`)}\n`)
  .join('')}WorkingDirectory=${q(input.root)}
Restart=always
RestartSec=5
# 78 = invalid configuration: fix config.yaml, then start again (no restart loop)
RestartPreventExitStatus=78
# SIGTERM starts a graceful drain of up to gateway.drain_timeout_s (${input.drainTimeoutS} s)
KillSignal=SIGTERM
KillMode=mixed
TimeoutStopSec=${input.drainTimeoutS + STOP_MARGIN_S}

[Install]
WantedBy=default.target
`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The launchd agent (`~/Library/LaunchAgents/<label>.plist`). */
export function launchdPlist(input: UnitInput): string {
  const label = launchdLabel(input.profile);
  const programArgs = args(input)
    .map((a) => `    <string>${xml(a)}</string>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${label}</string>
  <key>ProgramArguments</key>
  <array>
${programArgs}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
${unitEnv(input)
  .map(([k, v]) => `    <key>${xml(k)}</key>\n    <string>${xml(v)}</string>\n`)
  .join('')}  </dict>
  <key>WorkingDirectory</key>
  <string>${xml(input.root)}</string>
  <key>RunAtLoad</key>
  <true/>
  <!-- restart when it fails; launchd cannot skip exit 78 (invalid configuration), so restarts are throttled -->
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>30</integer>
  <!-- SIGTERM starts a graceful drain of up to gateway.drain_timeout_s -->
  <key>ExitTimeOut</key>
  <integer>${input.drainTimeoutS + STOP_MARGIN_S}</integer>
  <key>StandardOutPath</key>
  <string>${xml(`${input.root}/${input.profile ? `profiles/${input.profile}/` : ''}logs/gateway.out.log`)}</string>
  <key>StandardErrorPath</key>
  <string>${xml(`${input.root}/${input.profile ? `profiles/${input.profile}/` : ''}logs/gateway.out.log`)}</string>
</dict>
</plist>
`;
}
