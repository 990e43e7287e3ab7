// CI runs what the README tells a developer to run: `.ci/run`'s last command is the README's test command.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), 'utf8');

describe('.ci/run', () => {
  it("installs from scratch and runs the README's full check (typecheck, lint, tests)", () => {
    const commands = read('.ci/run')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(commands).toContain('npm ci --no-audit --no-fund');
    expect(commands.some((c) => c.includes('apt-get install -y bubblewrap'))).toBe(true);
    const last = commands.at(-1);
    expect(last).toBe('npm run check');
    // the README's two commands: set up and run, then the check CI runs
    const readme = read('README.md');
    expect(readme).toContain(`npm ci && npx hermes gateway run\n${last}\n`);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    // the short chaos run is part of the check: a change that breaks delivery, recovery or the suite fails CI
    expect(scripts.check).toBe('npm run typecheck && npm run lint && npm test && npm run test:chaos:short');
    expect(scripts['test:chaos:short']).toContain('CHAOS_SHORT=1');
  });
});
