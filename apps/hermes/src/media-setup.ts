/**
 * Outbound media, image generation and speech, set up from the settings: the `image_generate` tool
 * (through the image-gen provider registry), the voice answers' synthesizer (the TTS provider
 * registry) and the checks an answer's `MEDIA:` files pass in the gateway.
 */
import { dirname, join } from 'node:path';
import {
  createImageGenerateTool,
  createSafeDownload,
  createSpeechSynthesizer,
  type SpeechSynthesizer,
} from '@hermes/agent';
import type { MediaSourceOptions } from '@hermes/gateway';
import type { PluginRegistries } from '@hermes/plugins';
import { safeIdentityName, type ToolDefinition } from '@hermes/protocol';
import { type Settings, userHome } from './settings.js';
import { missingTtsCommand } from './tts-command-setup.js';

/** HERMES_HOME, and with a profile the root above it too: nothing under either but a cache/ is sent. */
export function hermesHomesOf(settings: Pick<Settings, 'home' | 'profile'>): string[] {
  return settings.profile === null ? [settings.home] : [dirname(dirname(settings.home)), settings.home];
}

function guardedDownload(settings: Settings) {
  return createSafeDownload({
    allowPrivate: settings.config.security.allow_private_urls,
    timeoutMs: settings.config.web.timeout_s * 1000,
    maxBytes: settings.config.media.max_bytes, // media.max_bytes: the same cap both ways
  });
}

/** `image_generate`, reading the providers at call time (they register while plugins load). */
export function imageGenerateTool(settings: Settings, registries: PluginRegistries): ToolDefinition {
  const { config } = settings;
  return createImageGenerateTool({
    providers: registries.imageGenProviders,
    config: config.image_gen,
    modelBaseUrl: config.model.base_url,
    apiKey: config.model.api_key,
    // the user's own media folder (only they are sent from it; hermes chat and -z: cli:local's); no user: cache/images
    imageDir: (owner) =>
      owner === undefined
        ? join(settings.home, 'cache', 'images')
        : join(settings.home, 'cache', 'media', safeIdentityName(owner), 'images'),
    download: guardedDownload(settings),
  });
}

/** Text to speech for the gateway's voice answers (tts.*), reading the providers at call time. */
export function speechSynthesizer(settings: Settings, registries: PluginRegistries): SpeechSynthesizer {
  const { config } = settings;
  return createSpeechSynthesizer({
    providers: registries.ttsProviders,
    config: config.tts,
    modelBaseUrl: config.model.base_url,
    apiKey: config.model.api_key,
    missing: missingTtsCommand(settings),
  });
}

/** read_file's guard options (runtime.ts gives the file tools the same cwd, roots, HERMES_HOMEs and home). */
export function fileGuardOf(settings: Settings): NonNullable<MediaSourceOptions['fileGuard']> {
  const { config } = settings;
  return {
    cwd: config.terminal.cwd ?? process.cwd(),
    ...(config.tools.file_roots ? { roots: config.tools.file_roots } : {}),
    hermesHomes: hermesHomesOf(settings),
    homeDir: userHome(settings.env),
  };
}

/**
 * What the gateway checks an answer's MEDIA files with: exactly read_file's guard, and the media
 * cache of per-user folders (the asking user's own is sendable, no other).
 */
export function outboundMediaOptions(settings: Settings): MediaSourceOptions {
  return {
    hermesHomes: hermesHomesOf(settings),
    fileGuard: fileGuardOf(settings),
    mediaCache: join(settings.home, 'cache', 'media'),
    downloadDir: join(settings.home, 'cache', 'media', 'outbound'),
    maxBytes: settings.config.media.max_bytes,
    download: guardedDownload(settings),
  };
}
