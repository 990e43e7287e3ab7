import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI({ models: ['fake-model', 'test-model'] });

describe('hermes config', () => {
  it('path, set (keeping comments), show with the key masked, show --json', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), '# my settings\nmodel:\n  default: old-model # pinned\n');
    const env = { HERMES_HOME: home };
    expect((await runHermes(['config', 'path'], { env })).stdout).toBe(`${join(home, 'config.yaml')}\n`);

    const set = await runHermes(['config', 'set', 'model.default', 'new-model'], { env });
    expect(set.code).toBe(0);
    const set2 = await runHermes(['config', 'set', 'agent.max_iterations', '7'], { env });
    expect(set2.code).toBe(0);
    await runHermes(['config', 'set', 'model.api_key', 'sk-shown-never-0123456789'], { env });
    const text = readFileSync(join(home, 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('default: new-model');
    expect(text).toMatch(/max_iterations: 7/);

    const show = await runHermes(['config', 'show'], { env });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('new-model');
    expect(show.stdout).not.toContain('sk-shown-never');
    const json = JSON.parse((await runHermes(['config', 'show', '--json'], { env })).stdout) as {
      model: { default: string; api_key: string };
      agent: { max_iterations: number };
    };
    expect(json.model).toMatchObject({ default: 'new-model', api_key: '***' });
    expect(json.agent.max_iterations).toBe(7);
  });

  it('set refuses a wrong type and leaves the file alone', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'agent:\n  max_iterations: 5\n');
    const r = await runHermes(['config', 'set', 'agent.max_iterations', 'many'], { env: { HERMES_HOME: home } });
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/agent\.max_iterations/);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toBe('agent:\n  max_iterations: 5\n');
  });

  it('--profile uses a separate home under profiles/', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    await runHermes(['--profile', 'work', 'config', 'set', 'model.default', 'work-model'], { env });
    expect((await runHermes(['config', 'path', '--profile', 'work'], { env })).stdout.trim()).toBe(
      join(home, 'profiles', 'work', 'config.yaml'),
    );
    const root = JSON.parse((await runHermes(['config', 'show', '--json'], { env })).stdout) as {
      model: { default: string };
    };
    expect(root.model.default).toBe('');
    const work = JSON.parse(
      (await runHermes(['config', 'show', '--json'], { env: { ...env, HERMES_PROFILE: 'work' } })).stdout,
    ) as { model: { default: string } };
    expect(work.model.default).toBe('work-model');
  });
});

describe('hermes doctor', () => {
  it('reports a healthy setup, in JSON too', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
    openai.server.respond(() => ({ text: 'O' }));
    const r = await runHermes(['doctor'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ model: test-model at .* answered a one-token completion/);
    expect(r.stdout).toContain('✓ model list: GET /models lists test-model');
    expect(openai.server.requests.find((q) => q.path === '/v1/chat/completions')?.body?.max_tokens).toBe(1);
    expect(r.stdout).toMatch(/✓ state: .*state\.db \(schema v\d+\)/);
    expect(openai.server.requests.some((q) => q.path === '/v1/models')).toBe(true);
    const json = JSON.parse((await runHermes(['doctor', '--json'], { env })).stdout) as {
      ok: boolean;
      checks: { name: string; status: string }[];
    };
    expect(json.ok).toBe(true);
    expect(json.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['home', 'config', 'state', 'model', 'plugins']),
    );
  });

  it('fails when no model is configured', async () => {
    const r = await runHermes(['doctor'], { env: { HERMES_HOME: tempHome(), OPENAI_BASE_URL: openai.server.url } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ model: no model configured/);
  });
});

describe('usage', () => {
  it('unknown options and empty prompts exit 2; --help and --version exit 0', async () => {
    const bad = await runHermes(['--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option '--bogus'/);
    const empty = await runHermes(['-z', '  '], { env: { HERMES_HOME: tempHome() } });
    expect(empty.code).toBe(2);
    const help = await runHermes(['--help']);
    expect(help.code).toBe(0);
    for (const cmd of ['chat', 'config', 'doctor', '--oneshot']) expect(help.stdout).toContain(cmd);
    expect((await runHermes(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('no model configured: -z says how to set one, exit 78', async () => {
    const r = await runHermes(['-z', 'hi'], { env: { HERMES_HOME: tempHome(), OPENAI_BASE_URL: openai.server.url } });
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/no model configured: set model\.default in .*config\.yaml or HERMES_INFERENCE_MODEL/);
  });
});

describe('hermes chat approvals', () => {
  it('asks before a dangerous command and honours the answer', async () => {
    const home = tempHome();
    const target = join(home, 'victim');
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'x');
    const command = `rm -rf ${target}/*`;
    openai.server.script(
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { text: 'first done' },
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { text: 'second done' },
    );
    const r = await runHermes(['chat'], {
      input: 'delete it\nd\ndelete it now\no\n/exit\n',
      env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Run it\? \[o\]nce/);
    const toolResults = openai.server.requests
      .filter((q) => q.path.endsWith('/chat/completions'))
      .map((q) => (q.body as { messages: { role: string; content: string }[] }).messages.at(-1));
    expect(JSON.parse(toolResults[1]?.content ?? '{}')).toMatchObject({ denied: true });
    expect(JSON.parse(toolResults[3]?.content ?? '{}')).toMatchObject({ exit_code: 0 });
    expect(() => readFileSync(join(target, 'keep.txt'))).toThrow();
  });
});
