// Issue 35, `hermes fallback` through the built CLI: model.fallback as a chain (a turn answered by the
// second fallback when the primary and the first one answer 500s, the note naming it and the one that
// failed), `hermes fallback list|add|remove` editing config.yaml with its comments kept, `hermes
// fallback test` reporting ok with a latency and a failure with its error (exit 1), and the menu of
// bare `hermes fallback` on a terminal (util-linux `script` gives it one).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../fakes/openai-server.js';
import { HERMES_BIN, runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const primary = useFakeOpenAI();
const other = useFakeOpenAI();
const OTHER_KEY = 'sk-other-provider-key-0123456789';
const chats = (server: FakeOpenAI) => server.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** A HERMES_HOME with the `other` provider (a user plugin at the second fake) and `config` as config.yaml. */
function homeWith(config: string): string {
  const home = tempHome();
  const dir = join(home, 'plugins', 'model-providers', 'other');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: model-provider-other\nversion: 1.0.0\nkind: backend\n');
  writeFileSync(
    join(dir, 'index.ts'),
    `export function register(ctx) {
  ctx.registerModelProvider({ name: 'other', baseUrl: ${JSON.stringify(other.server.url)}, apiKeyEnv: 'OTHER_API_KEY', defaultModel: 'model-c' });
}
`,
  );
  writeFileSync(join(home, 'config.yaml'), `plugins:\n  enabled: [model-providers/other]\n${config}`);
  trustHome(home);
  return home;
}

const env = (home: string): Record<string, string> => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: primary.server.url,
  HERMES_INFERENCE_MODEL: 'model-a',
  OTHER_API_KEY: OTHER_KEY,
});

describe('model.fallback as a chain', () => {
  it('the primary and the first fallback answer 500s: the second answers, and the note names it and the one that failed', async () => {
    const home = homeWith(
      'agent:\n  api_max_retries: 1\nmodel:\n  fallback:\n    - custom:model-b\n    - other:model-c\n',
    );
    primary.server.respond(() => ({ status: 500 }));
    other.server.respond(() => ({ text: 'the second fallback speaking' }));
    const r = await runHermes(['-z', 'are you there?'], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(
      'the second fallback speaking\n\n(answered by other:model-c: the primary model and fallback custom:model-b failed)',
    );
    // each with its one retry (agent.api_max_retries: 1), in order: the primary, then the first fallback
    expect(chats(primary.server).map((c) => c.body?.model)).toEqual(['model-a', 'model-a', 'model-b', 'model-b']);
    expect(chats(other.server).map((c) => c.body?.model)).toEqual(['model-c']);
    expect(chats(other.server)[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    const log = readFileSync(join(home, 'logs', 'cli.log'), 'utf8');
    expect(log).toContain('the primary model custom:model-a failed; model.fallback custom:model-b answers');
    expect(log).toContain('the fallback custom:model-b failed; model.fallback other:model-c answers');
  });

  it('a single string is still a one-item chain, and the whole chain failing is the turn failing', async () => {
    const home = homeWith('agent:\n  api_max_retries: 0\nmodel:\n  fallback: other:model-c\n');
    primary.server.respond(() => ({ status: 500 }));
    other.server.respond(() => ({ status: 503 }));
    const r = await runHermes(['-z', 'hello'], { env: env(home) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(chats(primary.server)).toHaveLength(1);
    expect(chats(other.server)).toHaveLength(1);
  });
});

describe('hermes fallback list, add, remove', () => {
  it('edit model.fallback in config.yaml, keeping its comments; list shows URL and key state, never the key', async () => {
    const home = homeWith('# the models, chosen with care\nmodel:\n  fallback: other:model-c # the spare one\n');
    const run = (...args: string[]) => runHermes(['fallback', ...args], { env: env(home) });
    const config = () => readFileSync(join(home, 'config.yaml'), 'utf8');

    const listed = await run('list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Primary: custom:model-a');
    expect(listed.stdout).toMatch(/1\.\s+other:model-c\s+http:\/\/127\.0\.0\.1:\d+\/v1\s+OTHER_API_KEY: set/);
    expect(listed.stdout).not.toContain(OTHER_KEY);

    const added = await run('add', 'openrouter:openai/gpt-4o-mini');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('model.fallback = other:model-c → openrouter:openai/gpt-4o-mini\n');
    expect((await run('add', 'custom:model-b', '--first')).code).toBe(0);
    expect(config()).toContain('# the models, chosen with care\n');
    expect(config()).toContain('# the spare one');
    const json = JSON.parse((await run('list', '--json')).stdout) as Record<string, unknown>[];
    expect(json.map((e) => e.model)).toEqual(['custom:model-b', 'other:model-c', 'openrouter:openai/gpt-4o-mini']);
    expect(json[2]).toMatchObject({
      base_url: 'https://openrouter.ai/api/v1',
      api_key_env: 'OPENROUTER_API_KEY',
      key_set: false,
    });

    // the chain as the gateway reads it: `hermes config show` parses the edited file
    const shown = await runHermes(['config', 'show', '--json'], { env: env(home) });
    expect((JSON.parse(shown.stdout) as { model: { fallback: unknown } }).model.fallback).toEqual([
      'custom:model-b',
      'other:model-c',
      'openrouter:openai/gpt-4o-mini',
    ]);

    expect((await run('remove', 'openrouter:openai/gpt-4o-mini')).code).toBe(0);
    const last = await run('remove', 'custom:model-b');
    expect(last.stdout).toBe('model.fallback = other:model-c\n');
    expect(config()).toContain('fallback: other:model-c # the spare one\n');
    expect(config()).toContain('# the models, chosen with care\n');

    const missing = await run('remove', 'custom:nothing');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('"custom:nothing" is not in model.fallback (the chain: other:model-c)');
    const unknown = await run('add', 'nowhere:x');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown model provider "nowhere"');
    // piped, bare `hermes fallback` is the list
    const bare = await run();
    expect(bare.stdout).toMatch(/1\.\s+other:model-c/);
  });
});

describe('hermes fallback test', () => {
  it('one tiny request to each: ok with its latency, the failure with its error, exit 1', async () => {
    const home = homeWith('model:\n  fallback: [other:model-c, custom:model-b]\n');
    other.server.respond(() => ({ text: 'OK' }));
    primary.server.respond(() => ({ status: 500, body: { error: { message: 'the model is on fire' } } }));
    const r = await runHermes(['fallback', 'test'], { env: env(home) });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^✓ other:model-c: ok \(\d+ ms\)$/);
    expect(lines[1]).toMatch(/^✗ custom:model-b: HTTP 500: the model is on fire \(\d+ ms\)$/);
    expect(chats(other.server)[0]?.body).toMatchObject({ model: 'model-c', max_tokens: 1 });
    expect(chats(primary.server)).toHaveLength(1); // no retries: what the endpoint says now

    const one = await runHermes(['fallback', 'test', 'other:model-c', '--json'], { env: env(home) });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual([{ model: 'other:model-c', ok: true, ms: expect.any(Number), error: null }]);
  });
});

/** Runs the CLI on a terminal, answering each prompt it waits at with the next of `answers`. */
function runOnTty(args: string[], vars: Record<string, string>, answers: [prompt: string, line: string][]) {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|HERMES_)/.test(k)) base[k] = v;
  const quoted = [process.execPath, HERMES_BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...base, ...vars, TERM: 'dumb' } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString().replace(/\r/g, '')));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    output: () => out,
    async drive(): Promise<number | null> {
      let seen = 0;
      for (const [prompt, line] of answers) {
        await waitFor(() => out.indexOf(prompt, seen) >= 0, { what: `the prompt "${prompt}"` });
        seen = out.indexOf(prompt, seen) + prompt.length;
        child.stdin.write(`${line}\n`);
      }
      return closed;
    },
  };
}

describe('bare hermes fallback on a terminal', () => {
  it('a menu: add one first, list, test, quit', async () => {
    const home = homeWith('model:\n  fallback: other:model-c\n');
    other.server.respond(() => ({ text: 'OK' }));
    const menu = '[l]ist  [a]dd  [r]emove  [t]est  [q]uit: ';
    const tty = runOnTty(['fallback'], env(home), [
      [menu, 'a'],
      ['provider:model to add: ', 'other:model-d'],
      ['First in the chain? [y/N] ', 'y'],
      [menu, 't'],
      [menu, 'q'],
    ]);
    expect(await tty.drive()).toBe(0);
    const out = tty.output();
    expect(out).toContain('model.fallback = other:model-d → other:model-c');
    expect(out).toMatch(/✓ other:model-d: ok \(\d+ ms\)\n✓ other:model-c: ok \(\d+ ms\)/);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toContain(
      '  fallback:\n    - other:model-d\n    - other:model-c\n',
    );
  });
});
