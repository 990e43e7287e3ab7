// ctx.registerTtsProvider and ctx.registerVideoGenProvider: a good provider lands in its registry
// with its owner and goes on rollback; a bad one fails register() naming the registration and the
// member; a second plugin cannot take a name already registered.
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { createPluginContext, HookBus, PluginRegistries } from '../src/index.js';

function setup(key: string, registries = new PluginRegistries()) {
  const scoped = createPluginContext({
    key,
    dir: '/x',
    logger: silentLogger,
    tools: { register: () => () => {} },
    hooks: new HookBus(),
    host: { registries },
  });
  return { registries, scoped, ctx: scoped.ctx };
}

const speech = {
  name: 'say',
  isAvailable: () => true,
  synthesize: async () => ({ bytes: new Uint8Array([1]), mimeType: 'audio/ogg' }),
};
const video = {
  name: 'reel',
  isAvailable: () => true,
  generate: async () => ({ url: 'https://example.org/v.mp4' }),
};

describe('ctx.registerTtsProvider', () => {
  it('registers the provider with its owner; rollback removes it', () => {
    const { ctx, registries, scoped } = setup('tts/say');
    ctx.registerTtsProvider(speech);
    expect(registries.ttsProviders.get('say')).toEqual({ name: 'say', plugin: 'tts/say', provider: speech });
    scoped.rollback();
    expect(registries.ttsProviders.size).toBe(0);
  });

  it('refuses a provider without synthesize(), isAvailable() or a valid name, naming the member', () => {
    const { ctx, registries } = setup('tts/bad');
    const bad = (value: unknown) => () => ctx.registerTtsProvider(value as typeof speech);
    expect(bad({ name: 'say', isAvailable: () => true })).toThrow(
      'plugin tts/bad: registerTtsProvider: provider "say" has no synthesize(request) method',
    );
    expect(bad({ name: 'say', synthesize: speech.synthesize })).toThrow('provider "say" has no isAvailable() method');
    expect(bad({ ...speech, name: 'Say Loud' })).toThrow('registerTtsProvider: name: expected a lower-case name');
    expect(bad(null)).toThrow('registerTtsProvider: expected a provider object');
    expect(registries.ttsProviders.size).toBe(0);
  });

  it('a second plugin cannot take a name already registered', () => {
    const registries = new PluginRegistries();
    setup('tts/one', registries).ctx.registerTtsProvider(speech);
    expect(() => setup('tts/two', registries).ctx.registerTtsProvider({ ...speech })).toThrow(
      'plugin tts/two: TTS provider "say" is already registered',
    );
    expect(registries.ttsProviders.get('say')?.plugin).toBe('tts/one');
  });
});

describe('ctx.registerVideoGenProvider', () => {
  it('registers the provider with its owner; rollback removes it', () => {
    const { ctx, registries, scoped } = setup('video_gen/reel');
    ctx.registerVideoGenProvider(video);
    expect(registries.videoGenProviders.get('reel')).toEqual({
      name: 'reel',
      plugin: 'video_gen/reel',
      provider: video,
    });
    scoped.rollback();
    expect(registries.videoGenProviders.size).toBe(0);
  });

  it('refuses a provider without generate(), naming it; a taken name is refused', () => {
    const { ctx, registries } = setup('video_gen/bad');
    expect(() => ctx.registerVideoGenProvider({ name: 'reel', isAvailable: () => true } as typeof video)).toThrow(
      'plugin video_gen/bad: registerVideoGenProvider: provider "reel" has no generate(request) method',
    );
    ctx.registerVideoGenProvider(video);
    expect(() => setup('video_gen/other', registries).ctx.registerVideoGenProvider({ ...video })).toThrow(
      'video gen provider "reel" is already registered',
    );
  });
});
