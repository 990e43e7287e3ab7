// No Docker engine runs here, so the image is checked against the repository instead: every file
// it copies exists, it runs the README's set-up command, runs as a non-root user with HERMES_HOME
// in a volume, checks /health, and runs `hermes gateway run` with the launcher's settings.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LAUNCH_ENV, LAUNCH_NODE_FLAGS } from '../apps/hermes/src/service/launch-settings.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** Dockerfile instructions with their arguments, continuation lines joined. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('docker/Dockerfile', () => {
  const steps = instructions(read('docker/Dockerfile'));
  const all = (op: string) => steps.filter((s) => s.op === op).map((s) => s.args);

  it('copies only files that exist in the repository, and what the workspace build needs', () => {
    const sources = all('COPY')
      .filter((a) => !a.startsWith('--from'))
      .flatMap((a) => a.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(4);
    for (const source of sources) expect(existsSync(`${root}${source}`), source).toBe(true);
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const ws of workspaces) expect(sources, ws).toContain(ws.split('/')[0]);
    const references = (JSON.parse(read('tsconfig.json')) as { references: { path: string }[] }).references;
    for (const ref of references) expect(sources, ref.path).toContain(ref.path.split('/')[0]);
  });

  it("runs the README's set-up command and the contract's gateway command", () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npx hermes gateway run');
    expect(all('RUN').some((r) => r.startsWith('npm ci'))).toBe(true);
    // node on the bin, with the settings the bin's shebang gives `hermes` (launch-settings.ts)
    const cmd = ['node', ...LAUNCH_NODE_FLAGS, 'apps/hermes/bin/hermes.js', 'gateway', 'run'];
    expect(all('CMD').at(-1)).toBe(`[${cmd.map((w) => `"${w}"`).join(', ')}]`);
    const env = steps.slice(steps.findLastIndex((s) => s.op === 'FROM')).find((s) => s.op === 'ENV')?.args ?? '';
    for (const [name, value] of Object.entries(LAUNCH_ENV)) expect(env.split(/\s+/)).toContain(`${name}=${value}`);
    expect(existsSync(`${root}apps/hermes/bin/hermes.js`)).toBe(true);
  });

  it('runs as a non-root user, with HERMES_HOME in a volume and a health check on /health', () => {
    const runtime = steps.slice(steps.findLastIndex((s) => s.op === 'FROM'));
    expect(runtime.find((s) => s.op === 'USER')?.args).toBe('hermes');
    expect(runtime.find((s) => s.op === 'ENV')?.args).toContain('HERMES_HOME=/data');
    expect(runtime.find((s) => s.op === 'VOLUME')?.args).toBe('["/data"]');
    const health = runtime.find((s) => s.op === 'HEALTHCHECK')?.args ?? '';
    expect(health).toContain('http://127.0.0.1:8642/health');
    expect(runtime.find((s) => s.op === 'STOPSIGNAL')?.args).toBe('SIGTERM');
  });

  it('compose builds that Dockerfile, keeps state in a volume and requires a key for a non-loopback bind', () => {
    const compose = parse(read('docker/compose.yaml')) as {
      services: { hermes: { build: { dockerfile: string }; environment: Record<string, string>; volumes: string[] } };
    };
    const hermes = compose.services.hermes;
    expect(existsSync(`${root}${hermes.build.dockerfile}`)).toBe(true);
    expect(hermes.volumes).toContain('hermes-data:/data');
    expect(hermes.environment.HERMES_GATEWAY_HOST).toBe('0.0.0.0');
    expect(hermes.environment.API_SERVER_KEY).toMatch(/^\$\{API_SERVER_KEY:\?/);
  });
});
