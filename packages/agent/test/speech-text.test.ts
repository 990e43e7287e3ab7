// What a voice answer says: the answer's Markdown without MEDIA lines, code blocks and markup, cut
// at tts.max_chars at a sentence's end; the synthesizer's errors name the provider.
import { PluginRegistries } from '@hermes/plugins';
import { describe, expect, it } from 'vitest';
import { capSpeech, createSpeechSynthesizer, plainSpeech, speakableText } from '../src/tts/index.js';

describe('speakable text', () => {
  it('drops MEDIA lines, code blocks and markup; keeps the words', () => {
    const answer = [
      '## Result',
      '',
      'The **answer** is `42`, see [the docs](https://example.org).',
      '',
      '```ts',
      'const x = 42;',
      '```',
      '',
      '- one',
      '- two',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      'MEDIA: /tmp/chart.png',
    ].join('\n');
    expect(plainSpeech(answer)).toBe('Result\n\nThe answer is 42, see the docs.\n\none\ntwo\n\na b\n1 2');
  });

  it('cuts a long text at a sentence end in its second half, else at a space', () => {
    const text = `${'Short one. '.repeat(10)}and then a very long tail without a stop`;
    const capped = capSpeech(text, 100);
    expect(capped.truncated).toBe(true);
    expect(capped.text).toBe(`${'Short one. '.repeat(9).trimEnd()} …`);
    expect(capSpeech('word '.repeat(40), 50).text).toMatch(/^(word ){9}word …$/);
    expect(speakableText('short', 100)).toEqual({ text: 'short', truncated: false });
  });
});

describe('createSpeechSynthesizer', () => {
  const config = { provider: 'say', model: 'm', voice: 'v', format: 'opus' as const, max_chars: 100, timeout_s: 0.2 };
  const options = (registries: PluginRegistries) => ({
    providers: registries.ttsProviders,
    config,
    modelBaseUrl: 'http://127.0.0.1:9/v1',
    apiKey: '',
  });

  it('an unregistered or unavailable provider is named, and so is one that hangs or answers nothing', async () => {
    const registries = new PluginRegistries();
    const synth = createSpeechSynthesizer(options(registries));
    expect(synth.unavailable()).toBe('tts.provider "say" is not registered (registered: none)');
    await expect(synth.synthesize('hi')).rejects.toThrow('tts.provider "say" is not registered');
    const provider = {
      name: 'say',
      available: false,
      isAvailable() {
        return this.available;
      },
      synthesize: (request: { signal: AbortSignal }) =>
        new Promise<never>((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    registries.ttsProviders.set('say', { name: 'say', plugin: 'tts/say', provider });
    expect(synth.unavailable()).toBe('TTS provider "say" is not available');
    provider.available = true;
    await expect(synth.synthesize('hi')).rejects.toThrow('TTS provider "say" timed out after 0.2 s');
    await expect(synth.synthesize('```\ncode only\n```')).rejects.toThrow('nothing to speak');
    registries.ttsProviders.set('say', {
      name: 'say',
      plugin: 'tts/say',
      provider: {
        name: 'say',
        isAvailable: () => true,
        synthesize: async () => ({ bytes: new Uint8Array(), mimeType: 'audio/ogg' }),
      },
    });
    await expect(synth.synthesize('hi')).rejects.toThrow('TTS provider "say" answered no audio');
  });

  it('passes tts.* to the provider and names the file type by the answer (mp3 too)', async () => {
    const registries = new PluginRegistries();
    const seen: unknown[] = [];
    registries.ttsProviders.set('say', {
      name: 'say',
      plugin: 'tts/say',
      provider: {
        name: 'say',
        isAvailable: () => true,
        synthesize: async (request) => {
          seen.push({ ...request, signal: undefined });
          return { bytes: new Uint8Array([1, 2]), mimeType: 'audio/mpeg' };
        },
      },
    });
    const audio = await createSpeechSynthesizer(options(registries)).synthesize(`${'x'.repeat(150)}`);
    expect(audio).toMatchObject({ mimeType: 'audio/mpeg', extension: '.mp3', truncated: true });
    expect(seen).toEqual([
      {
        text: `${'x'.repeat(100)} …`,
        voice: 'v',
        format: 'opus',
        model: 'm',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: '',
        signal: undefined,
      },
    ]);
  });
});
