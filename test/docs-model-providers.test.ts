// docs/model-providers.md is runnable and true: its example plugin, copied into a HERMES_HOME and
// enabled, answers `hermes --provider acme -z` through a fake OpenAI server with its key, model and
// headers; its table of bundled profiles matches what the bundled plugins register; its config
// sample is valid.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { loadConfig } from '@hermes/config';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { fileBlocks } from './helpers/doc-blocks.js';
import { runHermes, tempHome } from './helpers/run-hermes.js';
import { useFakeOpenAI } from './helpers/use-fake-openai.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/model-providers.md', import.meta.url)), 'utf8');
const PLUGINS = fileURLToPath(new URL('../plugins', import.meta.url));
const KEY = 'sk-acme-docs-0123456789';
const openai = useFakeOpenAI();

describe('docs/model-providers.md', () => {
  it('its example plugin, dropped into HERMES_HOME and enabled, answers a turn with its key, model and headers', async () => {
    const blocks = fileBlocks(DOC);
    expect([...blocks.keys()].sort()).toEqual(['index.ts', 'plugin.yaml']);
    const home = tempHome();
    const dir = join(home, 'plugins', 'model-providers', 'acme');
    mkdirSync(dir, { recursive: true });
    for (const [file, body] of blocks) writeFileSync(join(dir, file), body);
    // the documented step: at a terminal it enables the plugin and approves its code (--yes here, no TTY)
    const enabled = await runHermes(['plugins', 'enable', 'model-providers/acme', '--yes'], {
      env: { HERMES_HOME: home },
    });
    expect(enabled.code, enabled.stderr).toBe(0);
    openai.server.script({ text: 'hello from acme' });
    const run = await runHermes(['--provider', 'acme', '-z', 'hello'], {
      env: { HERMES_HOME: home, ACME_BASE_URL: openai.server.url, ACME_API_KEY: KEY },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hello from acme\n');
    const request = openai.server.requests.find((r) => r.path.endsWith('/chat/completions'));
    expect(request?.body?.model).toBe('acme-chat');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-acme-team']).toBe('support');
  });

  it('the table of bundled profiles is what the bundled plugins register', async () => {
    const registries = new PluginRegistries();
    await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled: [],
      disabled: [],
      env: {},
      tools: new ToolRegistry(),
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
    });
    const bundled = [...registries.modelProviders.values()].filter((r) => r.name !== 'custom');
    expect(bundled.map((r) => r.name).sort()).toEqual(['alibaba-coding-plan', 'ollama', 'openai', 'openrouter']);
    for (const { profile } of bundled) {
      const row = DOC.split('\n').find((l) => l.startsWith(`| \`${profile.name}\` |`));
      expect(row, profile.name).toBeDefined();
      expect(row).toContain(`\`${profile.baseUrl}\``);
      expect(row).toContain(`\`${profile.apiKeyEnv}\``);
      expect(row).toContain(`\`${profile.defaultModel}\``);
      expect(row).toContain(`| ${profile.contextLength} |`);
    }
    expect(registries.modelProviders.has('custom')).toBe(true);
  });

  it('its config sample is valid', () => {
    const sample = /```yaml\n(model:\n[\s\S]*?)```/.exec(DOC)?.[1] ?? '';
    expect(sample).toContain('provider: openrouter');
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), sample);
    const { config, warnings } = loadConfig({ home, env: {} });
    expect(warnings).toEqual([]);
    expect(config.model).toMatchObject({ provider: 'openrouter', fallback: 'ollama:llama3.2' });
  });
});
