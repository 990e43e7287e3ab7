/**
 * Whose files are stored (PlatformContext.downloads): nothing is downloaded or stored for a
 * stranger (a user neither allowlisted nor paired: they get a pairing code and nothing else), and
 * each user may store `media.daily_upload_mb` a UTC day. The bytes are counted in the store (the
 * `uploads` of the user's `day` usage counter, migration 17): a restart keeps the day's count, and
 * instances on one PostgreSQL database share it; linked identities share one quota. A refused
 * file reaches the pipeline with `refused` set, and the user is told why.
 */
import type { DownloadGate, Logger } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import { DAY_MS } from '../access/usage-limits.js';
import { allowedByEnv, type Env } from '../pipeline/allowlist.js';
import { identityOfWho } from '../users/identity.js';
import { formatBytes } from './inbound-media.js';

export interface DownloadGatePorts {
  env: Env;
  pairing: { isApproved(platform: string, userId: string): Promise<boolean> | boolean };
  /** the store's usage counters, where the day's bytes are kept */
  counters: Pick<AsyncStore['usageCounters'], 'add' | 'get'>;
  /** the owner of an identity (identity links) */
  ownerOf(identity: string): Promise<string>;
  /** bytes one user may store a day */
  dailyBytes: number;
  now: () => number;
  logger: Logger;
}

export function downloadGates(ports: DownloadGatePorts): (platform: string) => DownloadGate {
  const dayStart = () => Math.floor(ports.now() / DAY_MS) * DAY_MS;
  const ownerOf = (platform: string, userId: string) => ports.ownerOf(identityOfWho(platform, userId));
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
      if (ports.dailyBytes === Number.POSITIVE_INFINITY) return null;
      const mine = (await ports.counters.get(await ownerOf(platform, userId), 'day', dayStart()))?.uploads ?? 0;
      if (mine + (reportedBytes ?? 0) > ports.dailyBytes)
        return `your upload quota of ${formatBytes(ports.dailyBytes)} a day (media.daily_upload_mb) is used up; it resets at 00:00 UTC`;
      return null;
    },
    record(userId, bytes) {
      if (ports.dailyBytes === Number.POSITIVE_INFINITY || bytes <= 0) return;
      const day = dayStart();
      const counted = ownerOf(platform, userId).then((owner) =>
        ports.counters.add(owner, 'day', { start: day, staleBefore: day }, { uploads: bytes }),
      );
      counted.catch((err: unknown) => ports.logger.warn({ err, platform }, 'media: an upload could not be counted'));
    },
  });
}
