// The image-gen provider sample of docs/plugins.md loads as a plugin and answers image_generate;
// a provider missing a member fails its plugin's register().
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createImageGenerateTool, createSafeDownload, ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import { silentLogger, type ToolContext } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(fileURLToPath(new URL('../docs/plugins.md', import.meta.url)), 'utf8');
const sample =
  [...doc.matchAll(/^```ts\n([\s\S]*?)^```/gm)]
    .map((m) => m[1] ?? '')
    .find((body) => body.includes('registerImageGenProvider')) ?? '';
const aliases = {
  '@hermes/plugin-sdk': fileURLToPath(new URL('../packages/plugin-sdk/src/index.ts', import.meta.url)),
};

async function load(name: string, body: string) {
  const home = mkdtempSync(join(tmpdir(), 'hermes-docs-imagegen-'));
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), `name: ${name}\n`);
  writeFileSync(join(dir, 'index.ts'), body);
  const registries = new PluginRegistries();
  const [record] = await loadPlugins({
    dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
    enabled: [name],
    disabled: [],
    env: {},
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    logger: silentLogger,
    aliases,
    host: { registries },
  });
  return { record, registries, home };
}

const context = (): ToolContext =>
  ({
    sessionId: 's',
    taskId: 't',
    toolCallId: 'c',
    platform: 'cli',
    cwd: '/',
    signal: new AbortController().signal,
  }) as ToolContext;

describe('image-gen providers', () => {
  it('the sample of docs/plugins.md registers a provider that image_generate uses', async () => {
    expect(sample).toContain('registerImageGenProvider');
    const { record, registries, home } = await load('solid', sample);
    expect(record?.error).toBeNull();
    expect([...registries.imageGenProviders.keys()]).toEqual(['solid-png']);
    const tool = createImageGenerateTool({
      providers: registries.imageGenProviders,
      config: { provider: 'solid-png', model: 'm' },
      modelBaseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
      imageDir: () => join(home, 'cache', 'images'),
      download: createSafeDownload({ allowPrivate: false, timeoutMs: 1_000, maxBytes: 1_000 }),
    });
    const result = (await tool.handler({ prompt: 'a dot' }, context())) as {
      success: boolean;
      media: string;
      path: string;
    };
    expect(result.success).toBe(true);
    expect(result.media).toBe(`MEDIA: ${result.path}`);
    expect(result.path.startsWith(join(home, 'cache', 'images'))).toBe(true);
    expect(readFileSync(result.path).subarray(1, 4).toString()).toBe('PNG');
  });

  it('a provider without generate() fails register() naming it', async () => {
    const { record, registries } = await load(
      'broken',
      "export function register(ctx) { ctx.registerImageGenProvider({ name: 'broken', isAvailable: () => true }); }\n",
    );
    expect(record?.state).toBe('failed');
    expect(record?.error).toContain('registerImageGenProvider: provider "broken" has no generate(request) method');
    expect(registries.imageGenProviders.size).toBe(0);
  });

  it('bad arguments and an unknown provider are clear tool errors', async () => {
    const registries = new PluginRegistries();
    const tool = createImageGenerateTool({
      providers: registries.imageGenProviders,
      config: { provider: 'openai', model: 'm' },
      modelBaseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
      imageDir: () => join(tmpdir(), 'unused'),
      download: createSafeDownload({ allowPrivate: false, timeoutMs: 1_000, maxBytes: 1_000 }),
    });
    expect(await tool.handler({}, context())).toMatchObject({
      success: false,
      error: expect.stringContaining('"prompt"'),
    });
    expect(await tool.handler({ prompt: 'x', size: 'huge' }, context())).toMatchObject({
      success: false,
      error: expect.stringContaining('WIDTHxHEIGHT'),
    });
    expect(await tool.handler({ prompt: 'x' }, context())).toMatchObject({
      success: false,
      error: 'image_gen.provider "openai" is not registered (registered: none)',
    });
  });
});
