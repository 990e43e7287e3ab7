// One way to report a broken plugin (-z, chat on a terminal, plugins list), what `plugins list`
// shows of plugins that do not run, short retry lines in chat, and /help in chat.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HERMES_BIN, type RunResult, runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

/** HERMES_HOME with an enabled plugin whose register() throws a two-line error, and a disabled one. */
function homeWithBrokenPlugin(): string {
  const home = tempHome();
  const broken = join(home, 'plugins', 'broken');
  mkdirSync(broken, { recursive: true });
  writeFileSync(join(broken, 'plugin.yaml'), 'name: broken\nversion: 1.0.0\nprovides_tools: [brk]\n');
  writeFileSync(
    join(broken, 'index.ts'),
    "export function register(): void {\n  throw new Error('boom: the config is wrong\\nsecond line of detail');\n}\n",
  );
  const off = join(home, 'plugins', 'off');
  mkdirSync(off, { recursive: true });
  writeFileSync(
    join(off, 'plugin.yaml'),
    'name: off\nversion: 1.0.0\nprovides_tools: [off_a, off_b]\nprovides_hooks: [post_tool_call]\n',
  );
  writeFileSync(join(off, 'index.ts'), 'export function register(): void {}\n');
  writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [broken]\n  disabled: [off]\n');
  trustHome(home);
  return home;
}

const env = (home: string) => ({ HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'm' });
const LINE = 'hermes: plugin broken failed to load: boom: the config is wrong';

/** Runs the CLI on a terminal (util-linux `script` gives it a pty); stdout and stderr come back together. */
function runOnTty(args: string[], envVars: Record<string, string>, input: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|HERMES_)/.test(k)) base[k] = v;
    const quoted = [process.execPath, HERMES_BIN, ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...base, ...envVars, TERM: 'dumb' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: out.replace(/\r/g, ''), stderr: '' });
    });
    // typed ahead: the pty keeps the lines until the chat reads them; stdin stays open (no EOF)
    child.stdin.write(input);
  });
}

describe('a broken plugin, reported one way', () => {
  it('-z: one line on stderr, then the answer', async () => {
    const home = homeWithBrokenPlugin();
    openai.server.script({ text: 'the answer' });
    const r = await runHermes(['-z', 'hi'], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('the answer');
    expect(r.stderr).toBe(`${LINE}\n`);
  });

  it('plugins list: one table row, the first line of the error; provides_tools of a disabled plugin', async () => {
    const home = homeWithBrokenPlugin();
    const r = await runHermes(['plugins', 'list'], { env: env(home) });
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n');
    expect(rows.find((l) => l.startsWith('broken '))).toMatch(/failed\s+user\s+brk\s+-\s+boom: the config is wrong$/);
    expect(r.stdout).not.toContain('second line');
    expect(rows.find((l) => l.startsWith('off '))).toMatch(/disabled\s+user\s+off_a,off_b\s+post_tool_call/);
  });

  it('chat on a terminal: the same one line (no log block, no stack); /plugins reads env missing once; /help lists the commands', async () => {
    const home = homeWithBrokenPlugin();
    const cmd = join(home, 'plugins', 'forecast');
    mkdirSync(cmd, { recursive: true });
    writeFileSync(join(cmd, 'plugin.yaml'), 'name: forecast\nversion: 1.0.0\n');
    writeFileSync(
      join(cmd, 'index.ts'),
      "export function register(ctx: { registerCommand(c: object): void }): void {\n  ctx.registerCommand({ name: 'weather', description: 'the forecast for a city', handler: () => 'sunny' });\n}\n",
    );
    writeFileSync(
      join(home, 'config.yaml'),
      'plugins:\n  enabled: [broken, web/tavily, forecast]\n  disabled: [off]\n',
    );
    trustHome(home);
    const r = await runOnTty(['chat'], env(home), '/plugins\n/help\n/exit\n');
    expect(r.stdout.split('\n').filter((l) => l.includes('failed to load'))).toEqual([LINE]);
    expect(r.stdout).not.toMatch(/\n\s+at /);
    expect(r.stdout).not.toContain('second line');
    expect(r.stdout).toContain('✗ web/tavily v1.0.0 (env missing: TAVILY_API_KEY)');
    expect(r.stdout).toContain('/plugins  the plugins and their state');
    // a plugin's command with the description it registered (#29 item 11b)
    expect(r.stdout).toContain('/weather  the forecast for a city (plugin forecast)');
    expect(r.stdout).not.toContain('Unknown command /help');
  });

  it('chat on a terminal: a model retry is one short line', async () => {
    const home = tempHome();
    openai.server.script({ status: 429, headers: { 'retry-after': '0' } }, { text: 'after the retry' });
    const r = await runOnTty(['chat'], env(home), 'hello\n/exit\n');
    expect(r.stdout).toContain('after the retry');
    const retries = r.stdout.split('\n').filter((l) => l.includes('retrying in'));
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/hermes: warning: model request failed \(.*HTTP 429.*\); retrying in \d+ ms$/);
    expect(r.stdout).not.toContain('WARN');
  });
});

describe('the interactive toggle agrees with plugins list', () => {
  it('a bundled plugin that runs without opt-in is [x], with the state plugins list shows', async () => {
    const home = tempHome();
    const list = await runHermes(['plugins', 'list'], { env: { HERMES_HOME: home } });
    expect(list.stdout).toMatch(/^web\/fetch\s+\S+\s+enabled/m);
    expect(list.stdout).toMatch(/^web\/tavily\s+\S+\s+env_missing/m);
    const r = await runOnTty(['plugins'], { HERMES_HOME: home }, 'q\n');
    expect(r.stdout).toMatch(/\[x\] web\/fetch /);
    expect(r.stdout).toMatch(/\[x\] web\/tavily .*\(env missing: TAVILY_API_KEY\)/);
    expect(r.stdout).toMatch(/\[ \] calculator /);
    expect(r.stdout).toContain('no changes');
  });
});
