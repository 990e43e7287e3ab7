// The cluster modules (packages/gateway/src/cluster) log why they cannot reach PostgreSQL, and the
// database password never appears in what they log: not on a refused connection, not on a wrong
// password.
import type { Logger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { PlatformLeases } from '../../packages/gateway/src/cluster/platform-leases.js';
import { SessionLeases } from '../../packages/gateway/src/cluster/session-leases.js';
import { postgresUnavailableReason, usePostgres } from '../helpers/postgres.js';
import { waitFor } from '../helpers/wait-for.js';

const SECRET = 'Sup3r-s3cret-db-pass';
const skip = postgresUnavailableReason() !== null;

function recorder(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log =
    (level: string) =>
    (obj: unknown, msg?: string): void =>
      void lines.push(`${level} ${JSON.stringify(obj)} ${msg ?? ''}`);
  const logger: Logger = {
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    fatal: log('fatal'),
    child: () => logger,
  };
  return { logger, lines };
}

async function logsOfFailedStart(url: string): Promise<string[]> {
  const { logger, lines } = recorder();
  const leases = new PlatformLeases({
    target: url,
    instanceId: 'sec',
    platforms: ['telegram'],
    failoverS: 2,
    onAcquired: () => undefined,
    onLost: () => undefined,
    log: logger,
  });
  const sessions = new SessionLeases({ target: url, log: logger });
  await leases.start();
  // the platform leases retry: two warnings, each saying why
  await waitFor(() => lines.filter((l) => l.startsWith('warn')).length >= 2);
  // a session lease cannot be had either: its error joins what is checked for the password
  const refused = await sessions.runExclusive('telegram:1', async () => 'ran').catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(Error);
  lines.push(`thrown ${String(refused)}`);
  expect(leases.holding()).toEqual([]);
  await leases.stop();
  await sessions.close();
  return lines;
}

describe('cluster modules: the database password is never logged', () => {
  it('connection refused', async () => {
    const lines = await logsOfFailedStart(`postgres://hermes:${SECRET}@127.0.0.1:9/hermes`);
    expect(lines.join('\n')).toMatch(/ECONNREFUSED/);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  describe.skipIf(skip)('wrong password (PostgreSQL)', () => {
    const pgServer = usePostgres();

    it('says authentication failed, without the password', async () => {
      const url = `postgres://hermes:${SECRET}@127.0.0.1:${pgServer.server.port}/postgres`;
      const lines = await logsOfFailedStart(url);
      expect(lines.join('\n')).toMatch(/password authentication failed/);
      expect(lines.join('\n')).not.toContain(SECRET);
    });
  });
});
