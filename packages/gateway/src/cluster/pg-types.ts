// What the cluster modules need of node-postgres, and how they name a lock.
import pg from 'pg';

/** A connection string (`postgres://...`) or node-postgres connection options. */
export type PgTarget = string | pg.ClientConfig;

export function clientConfig(target: PgTarget, applicationName: string): pg.ClientConfig {
  const base: pg.ClientConfig = typeof target === 'string' ? { connectionString: target } : { ...target };
  // TCP keep-alive from the client side too, so a dead server is noticed without traffic
  return { application_name: applicationName, keepAlive: true, keepAliveInitialDelayMillis: 1000, ...base };
}

/** A fresh dedicated connection (not from a pool): locks held on it die with it. */
export async function connectDedicated(target: PgTarget, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(target, applicationName));
  // an 'error' with no listener would crash the process; callers add their own listener too
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  return client;
}

/**
 * The SQL expression of the 64-bit advisory-lock key for a name, computed by the server
 * (`hashtextextended`), so every instance and every language maps a name to the same key.
 */
export const LOCK_KEY_SQL = (param: string) => `hashtextextended(${param}, 0)`;

export const PLATFORM_LOCK_PREFIX = 'hermes:platform:';
export const SESSION_LOCK_PREFIX = 'hermes:session:';

/** Rejects when `promise` does not settle within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from PostgreSQL within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Closes a connection without waiting on a server that may be gone. */
export function destroyClient(client: pg.Client): void {
  const socket = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  client.end().catch(() => undefined);
  socket?.destroy();
}
