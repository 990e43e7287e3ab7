// stt.provider xai: where its settings come from (stt.base_url, else XAI_BASE_URL, else api.x.ai;
// XAI_API_KEY, never model.api_key), and the request transcribe() makes against the fake xAI
// endpoint: `POST /v1/stt`, the file as the last (here only) part, no model field, the key as
// Bearer; a refused key or no key at all is a TranscriptionError naming why.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig, type HermesConfig } from '@hermes/config';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeXaiStt, startFakeXaiStt } from '../../../test/fakes/xai-stt.js';
import { sttSettings, XAI_DEFAULT_BASE_URL } from '../src/media/stt-settings.js';
import { TranscriptionError, transcribe } from '../src/media/transcribe.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-stt-xai-'));
let next = 0;
/** A fresh voice note (transcripts are cached next to the file). */
function voiceNote(bytes = 'OggS voice bytes'): { path: string; mimeType: string } {
  const path = join(dir, `voice-${next++}.ogg`);
  writeFileSync(path, bytes);
  return { path, mimeType: 'audio/ogg' };
}

const config = (stt: Partial<HermesConfig['stt']>): Pick<HermesConfig, 'stt' | 'model'> => {
  const base = defaultConfig();
  return {
    model: { ...base.model, base_url: 'http://model.example/v1', api_key: 'sk-model' },
    stt: { ...base.stt, ...stt },
  };
};

let xai: FakeXaiStt;
beforeAll(async () => {
  xai = await startFakeXaiStt();
});
afterAll(async () => {
  await xai.close();
});
beforeEach(() => xai.reset());

describe('sttSettings', () => {
  it('openai (the default): model.base_url and model.api_key; xai: its own URL and XAI_API_KEY', () => {
    expect(sttSettings(config({}), { XAI_API_KEY: 'xai-k' }, undefined)).toEqual({
      provider: 'openai',
      baseUrl: 'http://model.example/v1',
      apiKey: 'sk-model',
      model: 'whisper-1',
      timeoutMs: 60_000,
    });
    const xaiConfig = config({ provider: 'xai' });
    expect(sttSettings(xaiConfig, { XAI_API_KEY: 'xai-k' }, undefined)).toMatchObject({
      provider: 'xai',
      baseUrl: XAI_DEFAULT_BASE_URL,
      apiKey: 'xai-k',
    });
    expect(sttSettings(xaiConfig, { XAI_BASE_URL: 'http://proxy.example/v1' }, 'whisper {input_path}')).toMatchObject({
      baseUrl: 'http://proxy.example/v1',
      apiKey: '',
      command: 'whisper {input_path}',
    });
    expect(
      sttSettings(
        config({ provider: 'xai', base_url: 'http://stt.example/v1' }),
        { XAI_BASE_URL: 'http://x' },
        undefined,
      ).baseUrl,
    ).toBe('http://stt.example/v1');
  });
});

describe('transcribe with stt.provider xai', () => {
  const settings = (apiKey: string) => ({
    provider: 'xai' as const,
    baseUrl: xai.url,
    apiKey,
    model: 'whisper-1',
    timeoutMs: 5_000,
  });

  it('posts the file alone to /v1/stt with the key and reads the text', async () => {
    xai.script({ text: '  remind me to call mum ' });
    expect(await transcribe(voiceNote('OggS abc'), settings(xai.key))).toBe('remind me to call mum');
    expect(xai.requests).toEqual([
      {
        authorization: `Bearer ${xai.key}`,
        fields: ['file'],
        values: {},
        file: {
          fileName: expect.stringMatching(/^voice-\d+\.ogg$/),
          contentType: 'audio/ogg',
          data: Buffer.from('OggS abc'),
        },
      },
    ]);
  });

  it('a refused key is the error xAI gave; no key asks nothing', async () => {
    const refused = transcribe(voiceNote(), settings('xai-wrong-key-0123456789'));
    await expect(refused).rejects.toThrow(TranscriptionError);
    await expect(refused).rejects.toThrow(/answered HTTP 401: Incorrect API key provided/);
    await expect(transcribe(voiceNote(), settings(''))).rejects.toThrow('XAI_API_KEY is not set (stt.provider: xai)');
    expect(xai.requests).toHaveLength(1);
  });
});
