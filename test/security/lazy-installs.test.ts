// Lazy installs (security.allow_lazy_installs) through the built CLI, with a local package tarball
// made here by `npm pack` (npm runs offline: no network): a user plugin declaring
// `optional_dependencies` is deps_missing while its package is absent, and nothing installs it while
// lazy installs are off (refused, naming the package and the commands); under the agent's terminal
// it is refused too; with them on, `plugins install-deps --yes` (or `plugins enable --yes`) runs
// `npm install --prefix HERMES_HOME`, and the plugin loads, imports the package with
// ctx.importOptional, and its tool's answer reaches the model.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { runOnTtyScripted } from '../helpers/run-on-tty.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const scratch = mkdtempSync(join(tmpdir(), 'hermes-lazy-'));
/** npm offline with a cache of its own: nothing reaches a registry */
const NPM_ENV = {
  npm_config_cache: join(scratch, 'npm-cache'),
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
};
let tarball = '';

beforeAll(() => {
  const pkg = join(scratch, 'hermes-lazy-dep');
  mkdirSync(pkg);
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'hermes-lazy-dep', version: '1.0.0', type: 'module', exports: './index.js' }),
  );
  writeFileSync(
    join(pkg, 'index.js'),
    "export const shout = (text) => text.toUpperCase() + ' (hermes-lazy-dep 1.0.0)';\n",
  );
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', scratch], {
    cwd: pkg,
    env: { ...process.env, ...NPM_ENV },
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack: ${packed.stderr}`);
  tarball = join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz')) ?? '');
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A home with the user plugin lazy-echo (its tool uses the optional package), config as given. */
function homeWithPlugin(config = ''): string {
  const home = tempHome();
  const dir = join(home, 'plugins', 'lazy-echo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'plugin.yaml'),
    `name: lazy-echo\nversion: 1.0.0\nprovides_tools: [lazy_shout]\noptional_dependencies:\n  - hermes-lazy-dep@file:${tarball}\n`,
  );
  writeFileSync(
    join(dir, 'index.ts'),
    `export async function register(ctx) {
  const dep = await ctx.importOptional('hermes-lazy-dep');
  ctx.registerTool({
    name: 'lazy_shout',
    toolset: 'lazy',
    schema: { name: 'lazy_shout', description: 'Shout a text', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
    handler: (args) => ({ shouted: dep.shout(String(args.text)) }),
  });
}
`,
  );
  writeFileSync(join(home, 'config.yaml'), config);
  return home;
}

const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  ...NPM_ENV,
  ...extra,
});
const installed = (home: string) => existsSync(join(home, 'node_modules', 'hermes-lazy-dep', 'package.json'));
const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const request = (i: number) =>
  chatRequests()[i]?.body as { messages: ChatMessage[]; tools?: { function: { name: string } }[] };

interface ListEntry {
  key: string;
  state: string;
  error: string | null;
}
async function stateOf(home: string): Promise<ListEntry | undefined> {
  const r = await runHermes(['plugins', 'list', '--json'], { env: env(home) });
  return (JSON.parse(r.stdout) as ListEntry[]).find((e) => e.key === 'lazy-echo');
}

/** -z asking the model to call lazy_shout: the tool names the model was offered, and the tool's answer. */
async function shoutThroughChat(home: string): Promise<{ tools: string[]; toolAnswer: string | undefined }> {
  const before = chatRequests().length;
  openai.server.script({ toolCalls: [{ name: 'lazy_shout', arguments: { text: 'hello' } }] }, { text: 'Shouted.' });
  await runHermes(['-z', 'shout hello'], { env: env(home) });
  const tools = (request(before)?.tools ?? []).map((t) => t.function.name);
  const toolAnswer = request(before + 1)
    ?.messages.filter((m) => m.role === 'tool')
    .map((m) => String(m.content))
    .join('\n');
  return { tools, toolAnswer };
}

describe('lazy installs (security.allow_lazy_installs)', () => {
  it('off by default: enable says what is missing and how to install it; install-deps refuses; the plugin is deps_missing and not loaded', async () => {
    const home = homeWithPlugin();
    const enabled = await runHermes(['plugins', 'enable', 'lazy-echo', '--yes'], { env: env(home) });
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain('note: lazy-echo will not load (deps_missing)');
    expect(enabled.stdout).toContain(`npm install --prefix ${home} hermes-lazy-dep@file:${tarball}`);
    expect(enabled.stdout).toContain('security.allow_lazy_installs');
    const refused = await runHermes(['plugins', 'install-deps', 'lazy-echo', '--yes'], { env: env(home) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`lazy-echo needs hermes-lazy-dep@file:${tarball}, not installed`);
    expect(refused.stderr).toContain('lazy installs are off');
    expect(installed(home)).toBe(false);
    expect(await stateOf(home)).toMatchObject({
      state: 'deps_missing',
      error: `npm package hermes-lazy-dep@file:${tarball} not installed (hermes plugins install-deps lazy-echo)`,
    });
    const chat = await shoutThroughChat(home);
    expect(chat.tools).not.toContain('lazy_shout');
    expect(installed(home)).toBe(false); // an agent run never installs
  });

  it('on, but never for the agent terminal nor without a terminal or --yes', async () => {
    const home = homeWithPlugin('security:\n  allow_lazy_installs: true\n');
    const agent = await runHermes(['plugins', 'install-deps', 'lazy-echo', '--yes'], {
      env: env(home, { HERMES_AGENT_TERMINAL: '1' }),
    });
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain("run by the agent's terminal tool");
    const piped = await runHermes(['plugins', 'install-deps', 'lazy-echo'], { env: env(home) });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('not run at a terminal');
    expect(installed(home)).toBe(false);
  });

  it('on with --yes: install-deps installs into HERMES_HOME/node_modules, and the plugin loads and uses the package', async () => {
    const home = homeWithPlugin('security:\n  allow_lazy_installs: true\n');
    expect((await runHermes(['plugins', 'enable', 'lazy-echo'], { env: env(home) })).code).toBe(0);
    // approve the plugin's files as the operator (enable without a terminal records no consent)
    expect((await runHermes(['trust', 'approve', 'plugin:lazy-echo', '--yes'], { env: env(home) })).code).toBe(0);
    const r = await runHermes(['plugins', 'install-deps', 'lazy-echo', '--yes'], {
      env: env(home),
      timeoutMs: 120_000,
    });
    expect(r.stderr).not.toContain('hermes:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`installed hermes-lazy-dep@file:${tarball} into ${join(home, 'node_modules')}`);
    expect(installed(home)).toBe(true);
    expect((await stateOf(home))?.state).toBe('enabled');
    const chat = await shoutThroughChat(home);
    expect(chat.tools).toContain('lazy_shout');
    expect(chat.toolAnswer).toContain('HELLO (hermes-lazy-dep 1.0.0)');
    const again = await runHermes(['plugins', 'install-deps', 'lazy-echo', '--yes'], { env: env(home) });
    expect(again.stdout).toContain(`lazy-echo: hermes-lazy-dep@file:${tarball} installed in`);
  }, 180_000);

  it('on, at a terminal: the operator is asked, and only a yes installs', async () => {
    const home = homeWithPlugin('security:\n  allow_lazy_installs: true\n');
    const prompt = `Install hermes-lazy-dep@file:${tarball} for plugin lazy-echo into ${join(home, 'node_modules')}`;
    const no = await runOnTtyScripted(['plugins', 'install-deps', 'lazy-echo'], env(home), [{ prompt, answer: 'n' }]);
    expect(no.stderr).toBe('');
    expect(no.code).toBe(1);
    expect(no.stdout).toContain('hermes: not installed');
    expect(installed(home)).toBe(false);
    const yes = await runOnTtyScripted(
      ['plugins', 'install-deps', 'lazy-echo'],
      env(home),
      [{ prompt, answer: 'y' }],
      120_000,
    );
    expect(yes.code).toBe(0);
    expect(installed(home)).toBe(true);
  }, 180_000);

  it('on: plugins enable --yes installs the missing package right away', async () => {
    const home = homeWithPlugin('security:\n  allow_lazy_installs: true\n');
    const r = await runHermes(['plugins', 'enable', 'lazy-echo', '--yes'], { env: env(home), timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('plugin:lazy-echo: approved as it is now');
    expect(r.stdout).toContain('installed hermes-lazy-dep@file:');
    expect((await stateOf(home))?.state).toBe('enabled');
  }, 180_000);
});
