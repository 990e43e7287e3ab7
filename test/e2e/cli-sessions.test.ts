// `hermes sessions list|show|export|delete|prune` through the built CLI, on sessions `hermes -z`
// stored (a fake model on 127.0.0.1); deleting an active session while a gateway runs is refused.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome, testLockDir } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

describe('hermes sessions', () => {
  it('lists, shows, exports (JSON and Markdown), deletes and prunes the stored sessions', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
    openai.server.script(
      { toolCalls: [{ name: 'todo', arguments: { todos: [{ content: 'pack' }] } }] },
      { text: 'Packed the list.' },
      { text: 'Second answer.' },
    );
    expect((await runHermes(['-z', 'make a packing list'], { env })).code).toBe(0);
    expect((await runHermes(['-z', 'another question'], { env })).code).toBe(0);

    const listed = await runHermes(['sessions', 'list', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const sessions = JSON.parse(listed.stdout) as Array<{ id: string; platform: string; messages: number }>;
    expect(sessions.map((s) => s.messages)).toEqual([2, 4]);
    const second = sessions[0] as { id: string };
    const first = sessions[1] as { id: string };
    const text = await runHermes(['sessions', 'list'], { env });
    expect(text.stdout).toContain(`${first.id}  cli  4 messages  updated `);

    const shown = await runHermes(['sessions', 'show', first.id], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('[user] make a packing list');
    expect(shown.stdout).toContain('  → todo({"todos":[{"content":"pack"}]})');
    expect(shown.stdout).toContain('[assistant] Packed the list.');

    const file = join(home, 'first.md');
    const md = await runHermes(['sessions', 'export', first.id, '--format', 'md', '-o', file], { env });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stderr).toContain(`exported 4 messages of ${first.id} to ${file}`);
    const markdown = readFileSync(file, 'utf8');
    expect(markdown).toContain('**user**: make a packing list');
    expect(markdown).toContain('*calls todo*');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const json = JSON.parse((await runHermes(['sessions', 'export', first.id], { env })).stdout) as {
      messages: { role: string }[];
    };
    expect(json.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    const deleted = await runHermes(['sessions', 'delete', second.id], { env });
    expect(deleted.stdout).toBe(`deleted ${second.id} (2 messages)\n`);
    const missing = await runHermes(['sessions', 'show', second.id], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no session ${second.id}`);
    const pruned = await runHermes(['sessions', 'prune', '--days', '30', '--dry-run'], { env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(/^state prune \(idle > 30 days\): would delete /);
  });

  it('refuses to delete an active session while a gateway runs on the home', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
    openai.server.script({ text: 'hello' });
    const gw = await spawnGateway(env);
    try {
      const r = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hermes-session': 'keep' },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(r.status).toBe(200);
      const [active] = JSON.parse((await runHermes(['sessions', 'list', '--json'], { env })).stdout) as {
        id: string;
      }[];
      // the gateway's lock is in this worker's lock folder: the command looks there too
      const refused = await runHermes(['sessions', 'delete', active?.id ?? ''], { env: { ...env, ...testLockDir() } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is still active and a gateway is running .*end it in its chat first \(\/new\)/);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
