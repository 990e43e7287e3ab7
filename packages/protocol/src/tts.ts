/**
 * The text-to-speech provider contract: what a plugin registers with `ctx.registerTtsProvider`
 * (plugins/tts/<name>/), chosen by `tts.provider`, and asked by the gateway for voice answers.
 */

/** The audio formats asked of a provider: `opus` (Ogg Opus, what voice notes are) or `mp3`. */
export type TtsFormat = 'opus' | 'mp3';

/** One request: the text, and where and how to speak it (from `tts.*` and the model's settings). */
export interface TtsRequest {
  /** plain text, already cut to `tts.max_chars` */
  text: string;
  /** `tts.voice`; absent: the provider's default */
  voice?: string;
  /** `tts.format`; absent: `opus` */
  format?: TtsFormat;
  /** `tts.model` */
  model: string;
  /** `tts.base_url`, else the model's base URL (OpenAI-compatible, ending in /v1) */
  baseUrl: string;
  /** the model's API key (may be empty for a local server) */
  apiKey: string;
  /** aborted when `tts.timeout_s` passes or the gateway stops */
  signal: AbortSignal;
}

/** The spoken text: its bytes and their MIME type (`audio/ogg` for opus, `audio/mpeg` for mp3). */
export interface SynthesizedSpeech {
  bytes: Uint8Array;
  mimeType: string;
}

export interface TtsProvider {
  /** what `tts.provider` names (`openai`) */
  name: string;
  /** false when the provider cannot work here (a missing key, ...) */
  isAvailable(): boolean;
  /** speaks the text; throws an Error with a readable message on failure */
  synthesize(request: TtsRequest): Promise<SynthesizedSpeech>;
}
