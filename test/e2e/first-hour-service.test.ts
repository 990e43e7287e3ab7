// The first hour with `hermes gateway install`: a machine with systemctl but no user bus (nothing
// half-installed, start/stop/uninstall still work through the pid), and a unit that carries the
// README's model settings (secrets in .env) and starts a gateway that answers with them.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HERMES_BIN, runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

/** A fake `systemctl` first on PATH: `nobus` fails as a missing user bus does; `reloadfails` answers show-environment only; `ok` answers everything. */
function fakeSystemctl(mode: 'nobus' | 'reloadfails' | 'ok'): { bin: string; log: string; home: string } {
  const home = tempHome();
  const bin = join(home, 'fakebin');
  mkdirSync(bin);
  const log = join(home, 'systemctl.log');
  const script = join(bin, 'systemctl');
  writeFileSync(
    script,
    `#!/bin/sh
echo "$*" >> '${log}'
fail() { echo "Failed to connect to bus: No medium found" >&2; exit 1; }
case "${mode}" in
  nobus) fail ;;
  reloadfails) case "$*" in *show-environment*) exit 0 ;; *) fail ;; esac ;;
  ok) exit 0 ;;
esac
`,
  );
  chmodSync(script, 0o755);
  return { bin, log, home };
}

function envFor(fake: { bin: string; home: string }, hermesHome: string, extra: Record<string, string> = {}) {
  return {
    HOME: fake.home,
    PATH: `${fake.bin}:/usr/bin:/bin`,
    HERMES_HOME: hermesHome,
    HERMES_LOCK_DIR: join(hermesHome, 'locks'),
    HERMES_GATEWAY_PORT: '0',
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    ...extra,
  };
}

const unitFile = (home: string) => join(home, '.config', 'systemd', 'user', 'hermes-gateway.service');

describe('gateway install without a systemd user bus', () => {
  it('says so before writing anything and suggests `hermes gateway start`', async () => {
    const fake = fakeSystemctl('nobus');
    const r = await runHermes(['gateway', 'install'], { env: envFor(fake, tempHome()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('systemd cannot be used here');
    expect(r.stderr).toContain('Failed to connect to bus: No medium found');
    expect(r.stderr).toContain('hermes gateway start');
    expect(existsSync(unitFile(fake.home))).toBe(false);
  });

  it('rolls the unit back when daemon-reload fails after it was written', async () => {
    const fake = fakeSystemctl('reloadfails');
    const r = await runHermes(['gateway', 'install'], { env: envFor(fake, tempHome()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not installed');
    expect(r.stderr).toContain('daemon-reload');
    // systemctl's own words inside Hermes' one message, not printed raw before it (#29 item 11a)
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^hermes: not installed \(.*daemon-reload` failed: Failed to connect to bus: No medium found; run `hermes gateway start` instead/,
    );
    expect(existsSync(unitFile(fake.home))).toBe(false);
    expect(readFileSync(fake.log, 'utf8')).toContain('--user daemon-reload');
  });

  it('a unit left by an older install: start, status, stop go by the pid; uninstall removes it and exits 0', async () => {
    const fake = fakeSystemctl('nobus');
    const home = tempHome();
    const env = envFor(fake, home);
    mkdirSync(dirname(unitFile(fake.home)), { recursive: true });
    writeFileSync(unitFile(fake.home), '[Unit]\nDescription=Hermes Gateway\n');
    try {
      const start = await runHermes(['gateway', 'start'], { env, timeoutMs: 60_000 });
      expect(start.code, start.stderr).toBe(0);
      expect(start.stderr).toContain("using the gateway's pid");
      const status = await runHermes(['gateway', 'status'], { env });
      expect(status.code).toBe(0);
    } finally {
      const stop = await runHermes(['gateway', 'stop'], { env, timeoutMs: 60_000 });
      expect(stop.code, stop.stderr).toBe(0);
      expect(stop.stdout).toContain('stopped');
    }
    const un = await runHermes(['gateway', 'uninstall'], { env });
    expect(un.code, un.stderr).toBe(0);
    expect(un.stdout).toContain(`removed ${unitFile(fake.home)}`);
    expect(un.stdout).toContain('Failed to connect to bus');
    expect(existsSync(unitFile(fake.home))).toBe(false);
  });
});

/** The Environment= lines of a systemd unit, unquoted. */
function unitEnvironment(unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of unit.matchAll(/^Environment=(.*)$/gm)) {
    const quoted = /^"(.*)"$/.exec(m[1] ?? '');
    const raw = (quoted ? (quoted[1] ?? '').replace(/\\(.)/g, '$1') : (m[1] ?? '')).replace(/%%/g, '%');
    const eq = raw.indexOf('=');
    env[raw.slice(0, eq)] = raw.slice(eq + 1);
  }
  return env;
}

describe('the unit carries the model settings', () => {
  it('plain settings in the unit, secrets in .env (0600), a clean PATH; says which went where', async () => {
    const fake = fakeSystemctl('ok');
    const home = tempHome();
    const npxBin = '/home/u/.npm/_npx/1a2b3c/node_modules/.bin';
    const env = {
      ...envFor(fake, home, {
        OPENAI_API_KEY: 'sk-install-secret-0123456789',
        TELEGRAM_ALLOWED_USERS: '42',
        TAVILY_API_KEY: 'tvly-secret-0123456789',
        SEARXNG_URL: 'http://127.0.0.1:8888',
        HERMES_NOTE: 'say "hi" 100% \\o/',
      }),
      PATH: `${npxBin}:${fake.bin}:/usr/bin:/bin`,
    };
    const r = await runHermes(['gateway', 'install'], { env });
    expect(r.code, r.stderr).toBe(0);
    const unit = readFileSync(unitFile(fake.home), 'utf8');
    const vars = unitEnvironment(unit);
    expect(vars).toMatchObject({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_ALLOWED_USERS: '42',
      SEARXNG_URL: 'http://127.0.0.1:8888',
      HERMES_NOTE: 'say "hi" 100% \\o/',
    });
    expect(unit).not.toContain('sk-install-secret');
    expect(unit).not.toContain('tvly-secret');
    // systemd quoting: \" and \\ inside double quotes, % doubled (specifiers)
    expect(unit).toContain('Environment="HERMES_NOTE=say \\"hi\\" 100%% \\\\o/"');
    expect(vars.PATH).toBe(
      [...new Set([dirname(process.execPath), dirname(HERMES_BIN), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
    );
    const dotenv = join(home, '.env');
    expect(readFileSync(dotenv, 'utf8')).toContain('OPENAI_API_KEY=sk-install-secret-0123456789');
    expect(statSync(dotenv).mode & 0o777).toBe(0o600);
    expect(r.stdout).toMatch(/in the unit: .*HERMES_INFERENCE_MODEL.*OPENAI_BASE_URL/);
    expect(r.stdout).toContain(`in ${dotenv} (0600, not in the unit): OPENAI_API_KEY, TAVILY_API_KEY`);
    expect(readFileSync(fake.log, 'utf8')).toContain('--user enable --now hermes-gateway.service');

    const plist = await runHermes(['gateway', 'install', '--dry-run', '--manager', 'launchd'], { env });
    expect(plist.code, plist.stderr).toBe(0);
    expect(plist.stdout).toContain(
      `<key>OPENAI_BASE_URL</key>\n    <string>${openai.server.url}</string>\n    <key>SEARXNG_URL</key>`,
    );
    expect(plist.stdout).toContain('<key>HERMES_INFERENCE_MODEL</key>\n    <string>test-model</string>');
    expect(plist.stdout).not.toContain('sk-install-secret');
    expect(plist.stdout).not.toContain('_npx');
  });

  it('refuses (exit 78) a configuration the gateway would refuse, writing nothing', async () => {
    const fake = fakeSystemctl('ok');
    const noModel = await runHermes(['gateway', 'install'], {
      env: { ...envFor(fake, tempHome()), HERMES_INFERENCE_MODEL: '' },
    });
    expect(noModel.code).toBe(78);
    expect(noModel.stderr).toContain('no model configured');
    expect(noModel.stderr).toContain('HERMES_INFERENCE_MODEL');
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'agent:\n  max_iterations: many\n');
    const badConfig = await runHermes(['gateway', 'install'], { env: envFor(fake, home) });
    expect(badConfig.code).toBe(78);
    expect(badConfig.stderr).toContain('agent.max_iterations');
    const open = await runHermes(['gateway', 'install'], {
      env: { ...envFor(fake, tempHome()), HERMES_GATEWAY_HOST: '0.0.0.0' },
    });
    expect(open.code).toBe(78);
    expect(open.stderr).toContain('without API_SERVER_KEY');
    expect(existsSync(unitFile(fake.home))).toBe(false);
  });

  it("acceptance: the README's exports, install, then the unit's own command and environment answer a chat with that model", async () => {
    const fake = fakeSystemctl('ok');
    const home = tempHome();
    const r = await runHermes(['gateway', 'install'], {
      env: envFor(fake, home, { OPENAI_API_KEY: 'sk-model-key-0123456789', API_SERVER_KEY: 'api-key-0123456789' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const unit = readFileSync(unitFile(fake.home), 'utf8');
    const [node = '', ...args] = (/^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '').split(' ');
    const cwd = /^WorkingDirectory=(.*)$/m.exec(unit)?.[1] ?? '';
    // env -i: only what the unit sets (the secrets come from HERMES_HOME/.env)
    const child = spawn(node, args, { env: unitEnvironment(unit), cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const check = () => {
          const m = /listening on (http:\/\/\S+)/.exec(err);
          if (m?.[1]) resolve(m[1]);
        };
        child.stderr.on('data', check);
        child.once('exit', (code) => reject(new Error(`the unit's gateway exited ${code}: ${err}`)));
      });
      openai.server.script({ text: 'hello from the unit' });
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer api-key-0123456789' },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0]?.message.content).toBe('hello from the unit');
      const call = openai.server.requests.find((q) => q.path === '/v1/chat/completions');
      expect(call?.body?.model).toBe('test-model');
      expect(call?.headers.authorization).toBe('Bearer sk-model-key-0123456789');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
