/**
 * Can the service manager be talked to? With systemctl present but no user bus (containers, WSL,
 * SSH without lingering) every `systemctl --user` fails: install must not start, and start/stop/
 * restart fall back to the pid in gateway.lock.
 */
import { spawnSync } from 'node:child_process';

export type Reachability = { ok: true } | { ok: false; reason: string };

/** `systemctl --user show-environment` answering is the user manager answering. */
export function systemdUserReachable(): Reachability {
  const r = spawnSync('systemctl', ['--user', 'show-environment'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error) return { ok: false, reason: r.error.message };
  if (r.status === 0) return { ok: true };
  const said = `${r.stderr ?? ''}`.trim().split('\n')[0] || `exit ${r.status ?? r.signal}`;
  return { ok: false, reason: `systemctl --user: ${said}` };
}
