// docker/compose.cluster.yaml (PostgreSQL and two gateways) checked without a Docker engine: the
// file is parsed and what the setup relies on is asserted; the gateways' config.yaml is loaded by
// the gateway's own config loader.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  env_file?: { path: string; required: boolean }[];
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
}

const compose = parse(read('docker/compose.cluster.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const gateways = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
const db = compose.services.db;

describe('docker/compose.cluster.yaml', () => {
  it('runs two gateways built from the repository Dockerfile, each with its own id, home volume and port', () => {
    expect(gateways.map(([name]) => name)).toEqual(['hermes-1', 'hermes-2']);
    for (const [name, gateway] of gateways) {
      expect(gateway.build?.dockerfile, name).toBe('docker/Dockerfile');
      expect(
        existsSync(join(root, 'docker', gateway.build?.context ?? '', gateway.build?.dockerfile ?? '')),
        name,
      ).toBe(true);
      expect(gateway.env_file?.[0]?.path, name).toBe('.env');
    }
    const ids = gateways.map(([, g]) => g.environment?.HERMES_INSTANCE_ID);
    expect(new Set(ids).size).toBe(2);
    const ports = gateways.map(([, g]) => g.ports?.[0]);
    expect(ports).toEqual(['127.0.0.1:8642:8642', '127.0.0.1:8643:8642']);
    const homes = gateways.map(([, g]) => g.volumes?.find((v) => v.endsWith(':/data')));
    expect(new Set(homes).size).toBe(2);
    for (const home of homes) expect(Object.keys(compose.volumes)).toContain(home?.split(':')[0]);
  });

  it('points both gateways at the same PostgreSQL database, the db service, and starts them once it is healthy', () => {
    const urls = gateways.map(([, g]) => g.environment?.HERMES_DATABASE_URL);
    expect(urls[0]).toMatch(/^postgres:\/\/hermes:\$\{POSTGRES_PASSWORD\}@db:5432\/hermes$/);
    expect(urls[1]).toBe(urls[0]);
    for (const [name, gateway] of gateways) expect(gateway.depends_on?.db?.condition, name).toBe('service_healthy');
  });

  it('runs the official PostgreSQL image with a health check, its data in a volume and a required password', () => {
    expect(db?.image).toMatch(/^postgres:\d+/);
    expect(db?.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(db?.volumes).toContain('hermes-db:/var/lib/postgresql/data');
    expect(db?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(db?.environment?.POSTGRES_USER).toBe('hermes');
    expect(db?.environment?.POSTGRES_DB).toBe('hermes');
    expect(db?.ports).toBeUndefined();
  });

  it('requires a key for the non-loopback bind, as docker/compose.yaml does', () => {
    for (const [name, gateway] of gateways) {
      expect(gateway.environment?.HERMES_GATEWAY_HOST, name).toBe('0.0.0.0');
      expect(gateway.environment?.API_SERVER_KEY, name).toMatch(/^\$\{API_SERVER_KEY:\?/);
    }
  });

  it("mounts one config.yaml into both homes, which the gateway's loader reads as postgres with cluster failover", () => {
    const mounts = gateways.map(([, g]) => g.volumes?.find((v) => v.includes(':/data/config.yaml')));
    expect(mounts).toEqual([
      './cluster/config.yaml:/data/config.yaml:ro',
      './cluster/config.yaml:/data/config.yaml:ro',
    ]);
    const home = mkdtempSync(join(tmpdir(), 'hermes-compose-'));
    try {
      copyFileSync(join(root, 'docker/cluster/config.yaml'), join(home, 'config.yaml'));
      const { config, warnings } = loadConfig({ home, env: {} });
      expect(warnings).toEqual([]);
      expect(config.state.backend).toBe('postgres');
      expect(config.gateway.cluster.failover_s).toBe(10);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
