/**
 * The media sections of config.yaml: files users send (`media`), speech to text (`stt`), image
 * generation (`image_gen`) and text to speech (`tts`).
 */
import * as z from 'zod';
import { ttsProvidersSchema } from './tts-command-schema.js';
import { baseUrl } from './url-schema.js';

export const mediaSchema = z.object({
  /** files users send larger than this are not passed on (a reply names the limit) */
  max_bytes: z
    .int()
    .min(1)
    .default(20 * 1024 * 1024),
  /** files in HERMES_HOME/cache/media older than this many days are removed */
  cache_days: z.number().gt(0).default(7),
  /** MB of files one user may store a day (strangers none) */
  daily_upload_mb: z.number().gt(0).default(200),
});

export const sttSchema = z.object({
  /** openai: an OpenAI-compatible /audio/transcriptions with model.api_key; xai: xAI's /stt with XAI_API_KEY */
  provider: z.enum(['openai', 'xai']).default('openai'),
  /** the transcription endpoint's base (default: model.base_url; xai: XAI_BASE_URL, else https://api.x.ai/v1) */
  base_url: baseUrl.optional(),
  /** sent as `model` (openai); the request carries model.api_key */
  model: z.string().min(1).default('whisper-1'),
  /** a transcription taking longer than this is given up (the note then names the file) */
  timeout_s: z.number().gt(0).default(60),
});

export const imageGenSchema = z.object({
  /** the image-gen provider plugin that answers `image_generate` (bundled: openai) */
  provider: z.string().min(1).default('openai'),
  /** the image model asked for */
  model: z.string().min(1).default('gpt-image-1'),
  /** an OpenAI-compatible base URL (ending in /v1); default: the model's base URL */
  base_url: z.string().min(1).optional(),
});

export const ttsSchema = z.object({
  /** the TTS provider that speaks voice answers: a plugin's (bundled: openai) or a tts.providers entry */
  provider: z.string().min(1).default('openai'),
  /** the speech model asked for */
  model: z.string().min(1).default('gpt-4o-mini-tts'),
  /** the voice asked for */
  voice: z.string().min(1).default('alloy'),
  /** opus: Ogg Opus, sent as a voice note where the platform has them; mp3: an audio file */
  format: z.enum(['opus', 'mp3']).default('opus'),
  /** an OpenAI-compatible base URL (ending in /v1); default: the model's base URL */
  base_url: baseUrl.optional(),
  /** the chats that did not choose with /voice: auto (voice notes answered with voice), on, off */
  voice_answers: z.enum(['auto', 'on', 'off']).default('auto'),
  /** an answer longer than this is spoken up to here (the text answer is always whole) */
  max_chars: z.int().min(100).max(100_000).default(4000),
  /** a synthesis taking longer is given up (the text goes alone); a command is killed */
  timeout_s: z.number().gt(0).default(30),
  /** command-line backends by name (`type: command`), each registered as a TTS provider of that name */
  providers: ttsProvidersSchema,
});
