// `hermes tools list|enable|disable` through the built CLI, and what it sets applied by `hermes
// gateway run`: a platform narrowed to some toolsets offers its turns only those (Telegram, real
// grammy against the fake Bot API), while the API platform keeps agent.toolsets.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

const offeredTools = (i: number): string[] => {
  const request = openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'))[i];
  return ((request?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
};

describe('hermes tools', () => {
  it('lists the toolsets, disables and enables them everywhere or per platform, and the gateway applies it', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), '# my settings\ngateway:\n  batch_ms: 0\n');
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
    const listed = await runHermes(['tools', 'list', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const table = JSON.parse(listed.stdout) as { toolset: string; tools: string[]; offered: boolean }[];
    expect(table.find((r) => r.toolset === 'file')).toEqual({
      toolset: 'file',
      tools: ['patch', 'read_file', 'search_files', 'write_file'],
      offered: true,
      platforms: {},
    });

    const narrowed = await runHermes(['tools', 'disable', 'terminal', '--platform', 'telegram'], { env });
    expect(narrowed.code, narrowed.stderr).toBe(0);
    expect(narrowed.stdout).toMatch(/^gateway\.platforms\.telegram\.toolsets = \[.*"file".*\]\n$/);
    expect(narrowed.stdout).not.toContain('"terminal"');
    const text = await runHermes(['tools', 'list'], { env });
    expect(text.stdout).toMatch(/^terminal\s+on, telegram off\s+terminal$/m);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toContain('# my settings');
    const bad = await runHermes(['tools', 'disable', 'nonsense'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no toolset or tool "nonsense"');

    const tg = telegram.server;
    openai.server.respond(() => ({ text: 'ok' }));
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' }),
    );
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hello' });
      await waitFor(() => tg.sent.length >= 1, { what: 'the Telegram answer' });
      expect(offeredTools(0)).toContain('read_file');
      expect(offeredTools(0)).not.toContain('terminal');
      const r = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(r.status).toBe(200);
      expect(offeredTools(1)).toContain('terminal');
    } finally {
      expect(await gw.stop()).toBe(0);
    }

    // everywhere: agent.toolsets; enabling it back on telegram
    expect((await runHermes(['tools', 'disable', 'todo'], { env })).stdout).toMatch(/^agent\.toolsets = \[/);
    const enabled = await runHermes(['tools', 'enable', 'terminal', '--platform', 'telegram'], { env });
    expect(enabled.stdout).toContain('"terminal"');
    const after = JSON.parse((await runHermes(['tools', 'list', '--json'], { env })).stdout) as {
      toolset: string;
      offered: boolean;
      platforms: Record<string, boolean>;
    }[];
    expect(after.find((r) => r.toolset === 'todo')?.offered).toBe(false);
    expect(after.find((r) => r.toolset === 'terminal')?.platforms).toEqual({ telegram: true });
  });
});
