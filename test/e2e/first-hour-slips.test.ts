// Smaller slips of the first hour: logs --lines after --level, --lines abc, config set on a file
// with another invalid value, pairing approve on an unknown platform, gateway status --all naming
// profiles, a port in use, a gateway hook handler that does not parse.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const line = (level: number, msg: string) =>
  `${JSON.stringify({ level, time: Date.UTC(2026, 10, 22, 10, 0, 0), pid: 1, hostname: 'h', name: 'hermes', component: 'gateway', msg })}\n`;

describe('hermes logs', () => {
  it('--level warn --lines 2 filters first, then takes the last lines; --lines abc is refused', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'logs'));
    const lines = [line(40, 'warn one'), line(40, 'warn two'), line(50, 'error three')];
    for (let i = 0; i < 10; i++) lines.push(line(30, `info ${i}`));
    writeFileSync(join(home, 'logs', 'gateway.log'), lines.join(''));
    const r = await runHermes(['logs', '--level', 'warn', '--lines', '2'], { env: { HERMES_HOME: home } });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.replace(/^.* \[gateway\] /, '')),
    ).toEqual(['warn two', 'error three']);
    const bad = await runHermes(['logs', '--lines', 'abc'], { env: { HERMES_HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--lines: expected a whole number');
  });
});

describe('hermes config set', () => {
  it('fixes one value while another is still invalid, and says what is left', async () => {
    const home = tempHome();
    const file = join(home, 'config.yaml');
    writeFileSync(file, 'agent:\n  max_iterations: many\nmodel:\n  timeout_s: fast\n');
    const r = await runHermes(['config', 'set', 'model.timeout_s', '30'], { env: { HERMES_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('timeout_s: 30');
    expect(r.stderr).toContain('still has 1 invalid value');
    expect(r.stderr).toContain('agent.max_iterations');
    const wrong = await runHermes(['config', 'set', 'model.timeout_s', 'slow'], { env: { HERMES_HOME: home } });
    expect(wrong.code).toBe(78);
    expect(readFileSync(file, 'utf8')).toContain('timeout_s: 30');
    const last = await runHermes(['config', 'set', 'agent.max_iterations', '5'], { env: { HERMES_HOME: home } });
    expect(last.code).toBe(0);
    expect(last.stderr).toBe('');
  });
});

describe('hermes pairing approve', () => {
  it('names an unknown platform (exit 2) instead of "no pending code"', async () => {
    const r = await runHermes(['pairing', 'approve', 'telegrm', 'ABCD2345'], { env: { HERMES_HOME: tempHome() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown platform "telegrm" (did you mean telegram?)');
    const known = await runHermes(['pairing', 'approve', 'telegram', 'ABCD2345'], { env: { HERMES_HOME: tempHome() } });
    expect(known.code).toBe(1);
    expect(known.stderr).toContain('no pending pairing code');
    // the web chat is a bundled platform too, known before any visitor asked
    const web = await runHermes(['pairing', 'approve', 'web', 'ABCD2345'], { env: { HERMES_HOME: tempHome() } });
    expect(web.code).toBe(1);
    expect(web.stderr).toContain('no pending pairing code');
  });
});

describe('hermes gateway status --all', () => {
  it('names each profile, the root home as default', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'profiles', 'work'), { recursive: true });
    const r = await runHermes(['gateway', 'status', '--all'], { env: { HERMES_HOME: home } });
    expect(r.code).toBe(3);
    expect(r.stdout.trim().split('\n')).toEqual([
      `default (${home}): not running`,
      `work (${join(home, 'profiles', 'work')}): not running`,
    ]);
    const json = await runHermes(['gateway', 'status', '--all', '--json'], { env: { HERMES_HOME: home } });
    expect((JSON.parse(json.stdout) as { profile: string }[]).map((s) => s.profile)).toEqual(['default', 'work']);
  });
});

describe('a port in use', () => {
  it('gateway run names gateway.port and HERMES_GATEWAY_PORT', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await runHermes(['gateway', 'run'], {
        env: {
          HERMES_HOME: tempHome(),
          HERMES_GATEWAY_PORT: String(port),
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
          HERMES_INFERENCE_MODEL: 'm',
        },
        timeoutMs: 30_000,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('gateway.port');
      expect(r.stderr).toContain('HERMES_GATEWAY_PORT');
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });
});

describe('hermes hooks list', () => {
  it('shows a gateway hook whose handler does not parse as failing, without running it', async () => {
    const home = tempHome();
    const good = join(home, 'hooks', 'good');
    const bad = join(home, 'hooks', 'bad');
    mkdirSync(good, { recursive: true });
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(good, 'HOOK.yaml'), 'name: good\ndescription: fine\nevents: [agent:end]\n');
    writeFileSync(join(good, 'handler.ts'), 'export function handle(): void {}\n');
    writeFileSync(join(bad, 'HOOK.yaml'), 'name: bad\ndescription: broken\nevents: [agent:end]\n');
    const marker = join(home, 'ran');
    writeFileSync(
      join(bad, 'handler.ts'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync('${marker}', 'x');\nexport function handle( { return 1 }\n`,
    );
    const r = await runHermes(['hooks', 'list'], { env: { HERMES_HOME: home } });
    expect(r.stdout).toMatch(/good\s+pending \(new\)\s+agent:end/);
    expect(r.stdout).toContain(`invalid: ${bad}: handler.ts does not load: SyntaxError at 3:`);
    expect(() => readFileSync(marker)).toThrow();
  });
});
