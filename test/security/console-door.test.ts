// `hermes console url` (issue #28: the console is an operator's door): a one-time link for the
// person at this machine, refused inside the agent's own terminal, its token never stored in clear.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

describe('hermes console url', () => {
  it('prints a one-time link to the configured host and port when no gateway runs; only its hash is kept', async () => {
    const home = tempHome();
    const run = await runHermes(['console', 'url'], { env: { HERMES_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const url = new URL(run.stdout.trim());
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:8642/console/login');
    const token = url.searchParams.get('token') ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(run.stderr).toMatch(/not running/);
    const stored = readFileSync(join(home, 'console', 'login-links.json'), 'utf8');
    expect(stored).not.toContain(token);
    expect(stored).toMatch(/"sha256":"[0-9a-f]{64}"/);
  });

  it("is refused inside the agent's terminal (HERMES_AGENT_TERMINAL=1): no link made", async () => {
    const home = tempHome();
    const run = await runHermes(['console', 'url'], { env: { HERMES_HOME: home, HERMES_AGENT_TERMINAL: '1' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused inside the agent terminal/);
    expect(run.stdout).toBe('');
  });
});
