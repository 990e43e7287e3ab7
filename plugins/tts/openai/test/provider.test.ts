// The bundled OpenAI-compatible TTS provider against the fake OpenAI server: the request it posts to
// <base>/audio/speech, the audio it answers, and errors naming the endpoint and the HTTP status
// (and, through the synthesizer, the provider).
import { createSpeechSynthesizer } from '@hermes/agent';
import { PluginRegistries } from '@hermes/plugins';
import type { TtsRequest } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { FAKE_MP3, FAKE_OPUS } from '../../../../test/fakes/openai-server.js';
import { useFakeOpenAI } from '../../../../test/helpers/use-fake-openai.js';
import { openAiSpeechProvider } from '../provider.js';

const openai = useFakeOpenAI({ requireKey: 'sk-test' });

const request = (over: Partial<TtsRequest> = {}): TtsRequest => ({
  text: 'Hello there.',
  voice: 'nova',
  format: 'opus',
  model: 'gpt-4o-mini-tts',
  baseUrl: `${openai.server.url}/`,
  apiKey: 'sk-test',
  signal: new AbortController().signal,
  ...over,
});

describe('the openai TTS provider', () => {
  it('posts {model, input, voice, response_format} with the key and answers the audio bytes and type', async () => {
    const speech = await openAiSpeechProvider.synthesize(request());
    expect(Buffer.from(speech.bytes)).toEqual(FAKE_OPUS);
    expect(speech.mimeType).toBe('audio/ogg');
    const [sent] = openai.server.speeches;
    expect(sent?.path).toBe('/v1/audio/speech');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hello there.',
      voice: 'nova',
      response_format: 'opus',
    });
    const mp3 = await openAiSpeechProvider.synthesize(request({ format: 'mp3' }));
    expect(Buffer.from(mp3.bytes)).toEqual(FAKE_MP3);
    expect(mp3.mimeType).toBe('audio/mpeg');
  });

  it("a server answering without a content type gets the format's type", async () => {
    openai.server.scriptSpeech({ bytes: FAKE_OPUS, contentType: 'application/octet-stream' });
    expect((await openAiSpeechProvider.synthesize(request())).mimeType).toBe('audio/ogg');
  });

  it("an HTTP error names the endpoint, the status and the server's message; JSON instead of audio is an error", async () => {
    openai.server.scriptSpeech({ status: 500, message: 'speech backend down' });
    await expect(openAiSpeechProvider.synthesize(request())).rejects.toThrow(
      `POST ${openai.server.url}/audio/speech answered HTTP 500: speech backend down`,
    );
    await expect(openAiSpeechProvider.synthesize(request({ apiKey: 'wrong' }))).rejects.toThrow(/answered HTTP 401/);
    openai.server.scriptSpeech({ bytes: Buffer.from('{"ok":true}'), contentType: 'application/json' });
    await expect(openAiSpeechProvider.synthesize(request())).rejects.toThrow(/application\/json instead of audio/);
  });

  it('an unreachable server is named; through the synthesizer every failure names the provider', async () => {
    await expect(openAiSpeechProvider.synthesize(request({ baseUrl: 'http://127.0.0.1:9/v1' }))).rejects.toThrow(
      'cannot reach http://127.0.0.1:9/v1/audio/speech',
    );
    const registries = new PluginRegistries();
    registries.ttsProviders.set('openai', { name: 'openai', plugin: 'tts/openai', provider: openAiSpeechProvider });
    const config = {
      provider: 'openai',
      model: 'm',
      voice: 'alloy',
      format: 'opus' as const,
      max_chars: 4000,
      timeout_s: 5,
    };
    const speech = createSpeechSynthesizer({
      providers: registries.ttsProviders,
      config,
      modelBaseUrl: openai.server.url,
      apiKey: 'sk-test',
    });
    openai.server.scriptSpeech({ status: 429, message: 'slow down' });
    await expect(speech.synthesize('**Hi**')).rejects.toThrow(
      `TTS provider "openai" failed: POST ${openai.server.url}/audio/speech answered HTTP 429: slow down`,
    );
    const audio = await speech.synthesize('**Hi** there, see `x`.\n\nMEDIA: /tmp/a.png');
    expect(audio).toMatchObject({ mimeType: 'audio/ogg', extension: '.opus', truncated: false });
    expect(openai.server.speeches.at(-1)?.body).toMatchObject({
      input: 'Hi there, see x.',
      voice: 'alloy',
      model: 'm',
    });
  });
});
