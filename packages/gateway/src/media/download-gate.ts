/**
 * Whose files are stored (PlatformContext.downloads): nothing is downloaded or stored for a
 * stranger (a user neither allowlisted nor paired: they get a pairing code and nothing else), and
 * each user may store `media.daily_upload_mb` a day (counted per platform user and UTC day, in
 * memory: a restart starts the day's count again). A refused file reaches the pipeline with
 * `refused` set, and the user is told why.
 */
import type { DownloadGate } from '@hermes/protocol';
import { allowedByEnv, type Env } from '../pipeline/allowlist.js';
import { formatBytes } from './inbound-media.js';

export interface DownloadGatePorts {
  env: Env;
  pairing: { isApproved(platform: string, userId: string): Promise<boolean> | boolean };
  /** bytes one user may store a day */
  dailyBytes: number;
  now: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function downloadGates(ports: DownloadGatePorts): (platform: string) => DownloadGate {
  const used = new Map<string, number>();
  let day = Math.floor(ports.now() / DAY_MS);
  const today = () => {
    const now = Math.floor(ports.now() / DAY_MS);
    if (now !== day) {
      day = now;
      used.clear();
    }
  };
  return (platform) => ({
    async admit(userId, reportedBytes) {
      // a web chat user signed in to the console is the operator (its id comes from the gateway's session)
      const operator = platform === 'web' && userId.startsWith('console:');
      if (
        !operator &&
        !allowedByEnv(platform, userId, ports.env) &&
        !(await ports.pairing.isApproved(platform, userId))
      )
        return 'files from users who are not allowed or paired are not stored';
      today();
      const mine = used.get(`${platform}:${userId}`) ?? 0;
      if (mine + (reportedBytes ?? 0) > ports.dailyBytes)
        return `your upload quota of ${formatBytes(ports.dailyBytes)} a day (media.daily_upload_mb) is used up; it resets at 00:00 UTC`;
      return null;
    },
    record(userId, bytes) {
      today();
      const key = `${platform}:${userId}`;
      used.set(key, (used.get(key) ?? 0) + bytes);
    },
  });
}
