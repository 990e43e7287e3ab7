// docs/scaling.md: its code sample runs as written against a real PostgreSQL, and the page never
// names files and keys the repository does not have.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresUnavailableReason, usePostgres } from './helpers/postgres.js';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const text = readFileSync(root('docs/scaling.md'), 'utf8');
const skip = postgresUnavailableReason() !== null;

describe('docs/scaling.md', () => {
  it('names what is built, and the repository agrees', () => {
    // the compose file is built (test/docker-cluster.test.ts checks it) and the page links it
    expect(existsSync(root('docker/compose.cluster.yaml'))).toBe(true);
    expect(text).toContain('[`docker/compose.cluster.yaml`](../docker/compose.cluster.yaml)');
    // the config keys it shows are documented with the others
    expect(text).toContain('failover_s');
    expect(readFileSync(root('docs/configuration.md'), 'utf8')).toContain('gateway.cluster.failover_s');
    // the modules and test files it names exist
    for (const m of text.matchAll(/(?<!test\/)cluster\/([\w-]+\.ts)/g)) {
      expect(existsSync(root(`packages/gateway/src/cluster/${m[1]}`)), m[1]).toBe(true);
    }
    for (const m of text.matchAll(/`(test\/[\w/.-]+\.ts)`/g)) expect(existsSync(root(m[1] ?? '')), m[1]).toBe(true);
  });

  describe.skipIf(skip)('the sample (PostgreSQL)', () => {
    const pgServer = usePostgres();
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hermes-docs-scaling-'));
    }, 60_000);
    afterAll(async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('runs as written: takes the platform, runs a session, lists the member, releases', async () => {
      const sample = /```ts\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
      expect(sample).toContain("from '@hermes/gateway/cluster'");
      const file = join(dir, 'sample.ts');
      writeFileSync(
        file,
        sample
          .replace("'@hermes/gateway/cluster'", JSON.stringify(root('packages/gateway/src/cluster/index.ts')))
          .replace("'@hermes/store'", JSON.stringify(root('packages/store/src/index.ts'))),
      );
      const logs: unknown[][] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args));
      process.env.DATABASE_URL = pgServer.server.url;
      try {
        await import(file);
      } finally {
        spy.mockRestore();
        delete process.env.DATABASE_URL;
      }
      expect(logs[0]).toEqual(['start telegram']);
      expect(logs[1]?.[0]).toBe('answered');
      expect(logs[1]?.[1]).toEqual([
        expect.objectContaining({ instanceId: 'gw-1', alive: true, platforms: ['telegram'] }),
      ]);
      expect(logs[2]).toEqual(['stop telegram: released']);
    });
  });
});
