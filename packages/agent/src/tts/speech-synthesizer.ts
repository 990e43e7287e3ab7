/**
 * Text to speech with the provider `tts.provider` names (a plugin of plugins/tts/): the answer made
 * speakable and capped (`tts.max_chars`), the provider asked with `tts.*` and the model's endpoint,
 * within `tts.timeout_s`. Every failure is a SpeechError naming the provider and what went wrong.
 */
import type { TtsProviderRegistration } from '@hermes/plugins';
import type { TtsFormat } from '@hermes/protocol';
import { speakableText } from './speakable-text.js';

/** `tts:` of config.yaml (the keys the synthesizer reads). */
export interface TtsSettings {
  provider: string;
  model: string;
  voice: string;
  format: TtsFormat;
  base_url?: string | undefined;
  max_chars: number;
  timeout_s: number;
}

export interface SpeechSynthesizerOptions {
  providers: ReadonlyMap<string, TtsProviderRegistration>;
  config: TtsSettings;
  /** the model's base URL and key: the default endpoint and credentials */
  modelBaseUrl: string;
  apiKey: string;
  /** why a provider is not registered when there is a reason to tell (a tts.providers entry not approved) */
  missing?: (name: string) => string | null;
}

/** A voice answer's audio: its bytes, type and file extension, and whether the text was cut. */
export interface SpeechAudio {
  bytes: Uint8Array;
  mimeType: string;
  /** `.opus` (Ogg Opus: a voice note), `.mp3`, ... */
  extension: string;
  truncated: boolean;
}

export class SpeechError extends Error {
  override readonly name = 'SpeechError';
}

export interface SpeechSynthesizer {
  /** why no speech can be made here (the provider is not registered or not available), else null */
  unavailable(): string | null;
  /** speaks an answer (Markdown); rejects with a SpeechError */
  synthesize(markdown: string, signal?: AbortSignal): Promise<SpeechAudio>;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'audio/ogg': '.opus',
  'audio/opus': '.opus',
  'audio/mpeg': '.mp3',
  'audio/mp3': '.mp3',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
};

/** The file extension of the audio: by its MIME type, else by the format asked. */
function extensionOf(mimeType: string, format: TtsFormat): string {
  return EXTENSIONS[mimeType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? (format === 'mp3' ? '.mp3' : '.opus');
}

export function createSpeechSynthesizer(options: SpeechSynthesizerOptions): SpeechSynthesizer {
  const { config } = options;
  const name = config.provider;
  const unavailable = (): string | null => {
    const registered = options.providers.get(name)?.provider;
    if (registered === undefined) {
      const why = options.missing?.(name);
      if (why) return why;
      const known = [...options.providers.keys()].join(', ') || 'none';
      return `tts.provider "${name}" is not registered (registered: ${known})`;
    }
    return registered.isAvailable() ? null : `TTS provider "${name}" is not available`;
  };
  return {
    unavailable,
    async synthesize(markdown, signal) {
      const why = unavailable();
      if (why !== null) throw new SpeechError(why);
      const provider = options.providers.get(name)?.provider;
      if (provider === undefined) throw new SpeechError(`tts.provider "${name}" is not registered`);
      const spoken = speakableText(markdown, config.max_chars);
      if (spoken.text === '') throw new SpeechError('the answer has nothing to speak (only code or files)');
      const timeout = AbortSignal.timeout(config.timeout_s * 1000);
      try {
        const speech = await provider.synthesize({
          text: spoken.text,
          voice: config.voice,
          format: config.format,
          model: config.model,
          baseUrl: config.base_url ?? options.modelBaseUrl,
          apiKey: options.apiKey,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (!(speech?.bytes instanceof Uint8Array) || speech.bytes.length === 0) {
          throw new SpeechError(`TTS provider "${name}" answered no audio`);
        }
        const mimeType = typeof speech.mimeType === 'string' ? speech.mimeType : '';
        return {
          bytes: speech.bytes,
          mimeType,
          extension: extensionOf(mimeType, config.format),
          truncated: spoken.truncated,
        };
      } catch (error) {
        if (error instanceof SpeechError) throw error;
        if (timeout.aborted) throw new SpeechError(`TTS provider "${name}" timed out after ${config.timeout_s} s`);
        const message = error instanceof Error ? error.message : String(error);
        throw new SpeechError(`TTS provider "${name}" failed: ${message}`);
      }
    },
  };
}
