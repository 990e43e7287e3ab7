// The TTS and video-gen provider samples of docs/plugins.md load as plugins and register their
// providers (the TTS one speaks through the synthesizer the gateway's voice answers use); a provider
// missing its method fails its plugin's register(), the error on the plugin's record (what
// `hermes plugins list` shows).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSpeechSynthesizer, ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(fileURLToPath(new URL('../docs/plugins.md', import.meta.url)), 'utf8');
const sampleWith = (needle: string) =>
  [...doc.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '').find((body) => body.includes(needle)) ?? '';
const aliases = {
  '@hermes/plugin-sdk': fileURLToPath(new URL('../packages/plugin-sdk/src/index.ts', import.meta.url)),
};

async function load(name: string, body: string) {
  const home = mkdtempSync(join(tmpdir(), 'hermes-docs-tts-'));
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
  return { record, registries };
}

describe('TTS providers', () => {
  it('the sample of docs/plugins.md registers a provider the voice answers speak with', async () => {
    const sample = sampleWith('registerTtsProvider');
    expect(sample).toContain('defineTtsProvider');
    const { record, registries } = await load('silence', sample);
    expect(record?.error).toBeNull();
    expect([...registries.ttsProviders.keys()]).toEqual(['silence']);
    const speech = createSpeechSynthesizer({
      providers: registries.ttsProviders,
      config: { provider: 'silence', model: 'm', voice: 'v', format: 'opus', max_chars: 4000, timeout_s: 5 },
      modelBaseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
    });
    const audio = await speech.synthesize('**Hello** there');
    expect(Buffer.from(audio.bytes).toString()).toBe('OggS fake audio for: Hello there');
    expect(audio).toMatchObject({ mimeType: 'audio/ogg', extension: '.opus' });
  });

  it('a provider without synthesize() fails register() naming it', async () => {
    const { record, registries } = await load(
      'mute',
      "export function register(ctx) { ctx.registerTtsProvider({ name: 'mute', isAvailable: () => true }); }\n",
    );
    expect(record?.state).toBe('failed');
    expect(record?.error).toContain('registerTtsProvider: provider "mute" has no synthesize(request) method');
    expect(registries.ttsProviders.size).toBe(0);
  });
});

describe('video-gen providers', () => {
  it('the sample of docs/plugins.md registers a provider; one without generate() fails register()', async () => {
    const sample = sampleWith('registerVideoGenProvider');
    expect(sample).toContain('defineVideoGenProvider');
    const { record, registries } = await load('clips', sample);
    expect(record).toMatchObject({ state: 'enabled', error: null });
    const provider = registries.videoGenProviders.get('clips')?.provider;
    expect(provider?.isAvailable()).toBe(true);
    expect(
      await provider?.generate({
        prompt: 'a cat',
        model: 'm',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: '',
        signal: new AbortController().signal,
      }),
    ).toEqual({ url: 'https://videos.example.org/clip.mp4' });
    const broken = await load(
      'stills',
      "export function register(ctx) { ctx.registerVideoGenProvider({ name: 'stills', isAvailable: () => true }); }\n",
    );
    expect(broken.record?.state).toBe('failed');
    expect(broken.record?.error).toContain(
      'registerVideoGenProvider: provider "stills" has no generate(request) method',
    );
  });
});
