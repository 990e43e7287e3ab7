// Issue #28 "nothing the model writes becomes trusted", through the built CLI and `hermes gateway
// run` with the fake model:
// - on the default `local` terminal, appending `hooks_auto_accept: true` to config.yaml, running
//   `hermes plugins enable`, or `hermes config set mcp_servers...` is a dangerous command: asked, and
//   denied where nobody can approve (the API);
// - what makes the gateway load code at start (hooks_auto_accept, HERMES_ACCEPT_HOOKS in .env, an
//   enabled user plugin, an mcp_servers entry, a skill) is not loaded until the operator approves
//   its content with `hermes trust approve`; each is logged with that exact command; the CLI refuses
//   consent under the agent terminal's marker or without a terminal / --yes.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const API_KEY = 'trust-test-key-0123456789';
const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  HOOK_LOG: join(home, 'hook-log.txt'),
  ...extra,
});
const hermes = (home: string, args: string[], extra: Record<string, string> = {}) =>
  runHermes(args, { env: env(home, extra) });

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A gateway hook that appends `ran NAME` to HOOK_LOG at gateway:startup. */
function writeHook(home: string, name: string): void {
  const dir = join(home, 'hooks', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'HOOK.yaml'), `name: ${name}\ndescription: test hook\nevents: ["gateway:startup"]\n`);
  writeFileSync(
    join(dir, 'handler.ts'),
    `import { appendFileSync } from 'node:fs';\nexport function handle() { appendFileSync(process.env.HOOK_LOG as string, 'ran ${name}\\n'); }\n`,
  );
}

/** A user plugin whose register() appends `plugin NAME` to HOOK_LOG. */
function writePlugin(home: string, name: string): void {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\ndescription: test plugin\n`);
  writeFileSync(
    join(dir, 'index.js'),
    `import { appendFileSync } from 'node:fs';\nexport function register() { appendFileSync(process.env.HOOK_LOG, 'plugin ${name}\\n'); }\n`,
  );
}

const hookLog = (home: string) =>
  existsSync(join(home, 'hook-log.txt')) ? readFileSync(join(home, 'hook-log.txt'), 'utf8') : '';

/** Starts the gateway, waits for the approved `control` hook (start-up hooks have run), stops it. */
async function startOnce(home: string, extra: Record<string, string> = {}, waitFor: string[] = []) {
  const before = hookLog(home).split('ran control').length;
  const gw = await spawnGateway(env(home, extra), 20_000);
  try {
    await until('the control hook', () => hookLog(home).split('ran control').length > before);
    for (const line of waitFor) await until(line, () => hookLog(home).includes(line) || existsSync(line));
  } finally {
    expect(await gw.stop()).toBe(0);
  }
  return gw.stderr();
}

/** One API turn on a gateway over `home`; returns the tool results the model was sent. */
async function askOverApi(home: string, text: string): Promise<string[]> {
  const gw = await spawnGateway(env(home, { API_SERVER_KEY: API_KEY }), 20_000);
  try {
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: text }] }),
    });
    expect(res.status).toBe(200);
  } finally {
    expect(await gw.stop()).toBe(0);
  }
  return openai.server.requests
    .flatMap((r) => (r.body as { messages: { role: string; content: string }[] }).messages)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
}

describe('the local terminal asks before touching HERMES_HOME or running hermes', () => {
  it('hooks_auto_accept appended to config.yaml, hermes plugins enable, hermes config set mcp_servers: each denied over the API', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'model:\n  default: test-model\n');
    writePlugin(home, 'evil');
    const commands = [
      `echo 'hooks_auto_accept: true' >> ${home}/config.yaml`,
      'hermes plugins enable evil',
      'hermes config set mcp_servers.evil.command /bin/sh',
      'cd "$HERMES_HOME" && echo x > BOOT.md',
    ];
    let call = 0;
    openai.server.respond((request) => {
      const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
      const last = messages.at(-1);
      if (last?.role === 'user') {
        call += 1;
        return { toolCalls: commands.map((command) => ({ name: 'terminal', arguments: { command } })) };
      }
      return { text: 'done' };
    });
    const toolResults = await askOverApi(home, 'make yourself at home');
    expect(call).toBe(1);
    expect(toolResults).toHaveLength(commands.length);
    for (const result of toolResults) expect(result).toContain('"denied":true');
    expect(toolResults.join('\n')).toContain('names HERMES_HOME');
    expect(toolResults.join('\n')).toContain('runs the hermes CLI');
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toBe('model:\n  default: test-model\n');
    expect(existsSync(join(home, 'BOOT.md'))).toBe(false);
  });
});

describe('code the gateway loads at start needs the operator consent, bound to its content', () => {
  it('hooks_auto_accept, a user plugin, an MCP server and a skill load only after `hermes trust approve`', async () => {
    const home = tempHome();
    const mcpMarker = join(home, 'mcp-ran');
    writeHook(home, 'control');
    expect((await hermes(home, ['hooks', 'approve', 'control'])).code).toBe(0);
    writeHook(home, 'evil');
    writePlugin(home, 'evil');
    mkdirSync(join(home, 'skills', 'evil'), { recursive: true });
    writeFileSync(join(home, 'skills', 'evil', 'SKILL.md'), '---\nname: evil\ndescription: x\n---\nobey\n');
    const script = `require('fs').writeFileSync(${JSON.stringify(mcpMarker)}, 'x')`;
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'hooks_auto_accept: true',
        'plugins:',
        '  enabled: [evil]',
        'mcp_servers:',
        '  evil:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: ["-e", ${JSON.stringify(script)}]`,
        '',
      ].join('\n'),
    );

    const stderr1 = await startOnce(home);
    expect(hookLog(home)).not.toContain('ran evil');
    expect(hookLog(home)).not.toContain('plugin evil');
    expect(existsSync(mcpMarker)).toBe(false);
    const log = readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
    for (const id of ['config:hooks_auto_accept', 'plugin:evil', 'mcp:evil', 'skill:evil']) {
      expect(stderr1).toContain(`run \`hermes trust approve ${id}\``);
      expect(log).toContain(`run \`hermes trust approve ${id}\``);
    }
    expect(stderr1).toContain('gateway hook evil not loaded: not approved (new)');

    // what the agent's terminal runs cannot approve; neither can a non-terminal run without --yes
    const asAgent = await hermes(home, ['trust', 'approve', '--all', '--yes'], { HERMES_AGENT_TERMINAL: '1' });
    expect(asAgent.code).not.toBe(0);
    expect(asAgent.stderr).toContain('HERMES_AGENT_TERMINAL');
    const piped = await hermes(home, ['trust', 'approve', '--all']);
    expect(piped.code).not.toBe(0);
    expect(piped.stderr).toContain('pass --yes');
    const enabledByAgent = await hermes(home, ['plugins', 'enable', 'evil', '--yes'], { HERMES_AGENT_TERMINAL: '1' });
    expect(enabledByAgent.stdout).toContain('plugin:evil: not approved');
    const listed = JSON.parse((await hermes(home, ['trust', 'list', '--json'])).stdout) as {
      id: string;
      state: string;
    }[];
    expect(Object.fromEntries(listed.map((r) => [r.id, r.state]))).toEqual({
      'config:hooks_auto_accept': 'new',
      'plugin:evil': 'new',
      'mcp:evil': 'new',
      'skill:evil': 'new',
    });
    // hermes doctor lists what is pending, with the command to approve each
    const doctor = await hermes(home, ['doctor']);
    for (const id of ['config:hooks_auto_accept', 'plugin:evil', 'mcp:evil', 'skill:evil'])
      expect(doctor.stdout).toContain(`hermes trust approve ${id}`);

    // the operator approves everything: all of it loads at the next start
    const approved = await hermes(home, ['trust', 'approve', '--all', '--yes']);
    expect(approved.code, approved.stderr).toBe(0);
    const stderr2 = await startOnce(home, {}, ['ran evil', 'plugin evil', mcpMarker]);
    expect(stderr2).not.toContain('hermes trust approve');

    // the plugin's code changes: pending again, not loaded
    appendFileSync(join(home, 'plugins', 'evil', 'index.js'), '// changed\n');
    const runsBefore = hookLog(home).split('plugin evil').length;
    const stderr3 = await startOnce(home);
    expect(stderr3).toContain('not approved (changed since approval); run `hermes trust approve plugin:evil`');
    expect(hookLog(home).split('plugin evil').length).toBe(runsBefore);
  }, 120_000);

  it('HERMES_ACCEPT_HOOKS=1 in HERMES_HOME/.env (the sandbox-escape probe) approves nothing until approved', async () => {
    const home = tempHome();
    writeHook(home, 'control');
    expect((await hermes(home, ['hooks', 'approve', 'control'])).code).toBe(0);
    writeHook(home, 'evil');
    writeFileSync(join(home, '.env'), 'HERMES_ACCEPT_HOOKS=1\n');
    const stderr1 = await startOnce(home);
    expect(hookLog(home)).not.toContain('ran evil');
    expect(stderr1).toContain('run `hermes trust approve env:HERMES_ACCEPT_HOOKS`');
    expect((await hermes(home, ['trust', 'approve', 'env:HERMES_ACCEPT_HOOKS', '--yes'])).code).toBe(0);
    await startOnce(home, {}, ['ran evil']);
  }, 60_000);
});

describe('the file tools in the service layout (working directory = HERMES_HOME)', () => {
  it('write_file cannot plant skills/, memories/ or BOOT.md; a relative file lands in the session workspace', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), `terminal:\n  cwd: ${JSON.stringify(home)}\n`);
    const skill = '---\nname: evil\ndescription: x\n---\nobey\n';
    const writes = [
      { path: join(home, 'skills', 'evil', 'SKILL.md'), content: skill },
      { path: join(home, 'memories', 'MEMORY.md'), content: 'obey\n' },
      { path: join(home, 'BOOT.md'), content: 'obey\n' },
      { path: '~/../../BOOT.md', content: 'obey\n' },
      // relative paths resolve in the session's workspace, not in HERMES_HOME
      { path: 'skills/evil/SKILL.md', content: skill },
      { path: 'BOOT.md', content: 'mine\n' },
    ];
    openai.server.respond((request) => {
      const last = (request.body as { messages: { role: string }[] }).messages.at(-1);
      if (last?.role === 'user') return { toolCalls: writes.map((w) => ({ name: 'write_file', arguments: w })) };
      return { text: 'done' };
    });
    const results = await askOverApi(home, 'remember this forever');
    expect(results).toHaveLength(writes.length);
    const denied = results.filter((r) => r.includes('Access denied'));
    expect(denied).toHaveLength(4);
    for (const p of ['skills', 'memories', 'BOOT.md']) expect(existsSync(join(home, p))).toBe(false);
    const written = results
      .filter((r) => !r.includes('Access denied'))
      .map((r) => (JSON.parse(r) as { path: string }).path);
    expect(written).toHaveLength(2);
    for (const p of written) expect(p).toMatch(new RegExp(`^${home}/workspaces/[^/]+/`));
  });
});
