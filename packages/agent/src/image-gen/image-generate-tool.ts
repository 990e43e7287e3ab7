/**
 * The `image_generate` tool `{prompt, size?}`: asks the image-gen provider named by
 * `image_gen.provider` (a plugin of plugins/image_gen/), saves the image in the asking user's own
 * media folder (HERMES_HOME/cache/media/<owner>/images; without a user, as in `hermes chat`,
 * HERMES_HOME/cache/images) and answers with a `MEDIA:` line, which the gateway delivers as a photo.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageGenProviderRegistration } from '@hermes/plugins';
import type { GeneratedImage, ToolDefinition } from '@hermes/protocol';
import { optionalString, parseArgs, requiredString, ToolArgumentError } from '../tools/tool-args.js';
import type { SafeDownload } from '../web/safe-download.js';

export const IMAGE_GENERATE_TOOL = 'image_generate';
const SIZE = /^(?:\d{2,5}x\d{2,5}|auto)$/;
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
};

/** `image_gen:` of config.yaml, and where the model's own settings fill in. */
export interface ImageGenToolOptions {
  providers: ReadonlyMap<string, ImageGenProviderRegistration>;
  config: { provider: string; model: string; base_url?: string | undefined };
  /** the model's base URL and key: the default endpoint and credentials */
  modelBaseUrl: string;
  apiKey: string;
  /** where the images of the turn's user (its owner key; undefined: no user) are saved */
  imageDir(owner: string | undefined): string;
  /** fetches an image a provider answered with a URL (the SSRF-guarded download) */
  download: SafeDownload;
}

async function imageBytes(image: GeneratedImage, download: SafeDownload, signal: AbortSignal) {
  if ('bytes' in image) return { bytes: image.bytes, mimeType: image.mimeType };
  const file = await download(image.url, { signal });
  return { bytes: file.bytes, mimeType: file.contentType };
}

export function createImageGenerateTool(options: ImageGenToolOptions): ToolDefinition {
  return {
    name: IMAGE_GENERATE_TOOL,
    toolset: 'image_gen',
    owner: 'builtin',
    emoji: '🎨',
    schema: {
      name: IMAGE_GENERATE_TOOL,
      description:
        'Generate an image from a text prompt. The image is sent to the user as a photo; the result carries a ' +
        '"MEDIA: <path>" line you may repeat on its own line in your answer.',
      parameters: {
        type: 'object',
        properties: {
          prompt: { type: 'string', description: 'what the image shows' },
          size: { type: 'string', description: "WIDTHxHEIGHT, e.g. 1024x1024 (default: the provider's)" },
        },
        required: ['prompt'],
      },
    },
    handler: async (args, context) => {
      const parsed = parseArgs(() => {
        const prompt = requiredString(args, 'prompt');
        const size = optionalString(args, 'size');
        if (size !== undefined && !SIZE.test(size)) {
          throw new ToolArgumentError(
            `Invalid argument "size": expected WIDTHxHEIGHT such as 1024x1024, got "${size}"`,
          );
        }
        return { prompt, size };
      });
      if (!parsed.ok) return { success: false, error: parsed.error, code: parsed.code };
      const name = options.config.provider;
      const registered = options.providers.get(name)?.provider;
      if (registered === undefined) {
        const known = [...options.providers.keys()].join(', ') || 'none';
        return { success: false, error: `image_gen.provider "${name}" is not registered (registered: ${known})` };
      }
      if (!registered.isAvailable()) return { success: false, error: `image-gen provider "${name}" is not available` };
      try {
        const image = await registered.generate({
          prompt: parsed.value.prompt,
          ...(parsed.value.size ? { size: parsed.value.size } : {}),
          model: options.config.model,
          baseUrl: options.config.base_url ?? options.modelBaseUrl,
          apiKey: options.apiKey,
          signal: context.signal,
        });
        const { bytes, mimeType } = await imageBytes(image, options.download, context.signal);
        if (bytes.length === 0)
          return { success: false, error: `image-gen provider "${name}" answered an empty image` };
        const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
        const dir = options.imageDir(context.user?.key);
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const file = path.join(dir, `image-${digest}${EXTENSIONS[mimeType] ?? '.png'}`);
        await writeFile(file, bytes, { mode: 0o600 });
        return { success: true, path: file, bytes: bytes.length, media: `MEDIA: ${file}` };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { success: false, error: `image generation failed: ${message}` };
      }
    },
  };
}

/**
 * The MEDIA lines of the images `image_generate` made in a turn (its tool results), so the gateway
 * can attach the ones the answer does not name itself.
 */
export function generatedImageLines(
  messages: readonly { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }[],
): string[] {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    for (const call of m.tool_calls as { id?: string; function?: { name?: string } }[]) {
      if (call.function?.name === IMAGE_GENERATE_TOOL && typeof call.id === 'string') ids.add(call.id);
    }
  }
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role !== 'tool' || typeof m.tool_call_id !== 'string' || !ids.has(m.tool_call_id)) continue;
    if (typeof m.content !== 'string') continue;
    try {
      const result = JSON.parse(m.content) as { success?: unknown; media?: unknown };
      if (result.success === true && typeof result.media === 'string' && result.media.startsWith('MEDIA: ')) {
        lines.push(result.media);
      }
    } catch {
      // not a JSON result: nothing to attach
    }
  }
  return lines;
}

/** The answer with the generated images' MEDIA lines it does not carry yet appended. */
export function withGeneratedImages(answer: string, messages: Parameters<typeof generatedImageLines>[0]): string {
  const lines = generatedImageLines(messages).filter((line) => !answer.includes(line.slice('MEDIA: '.length)));
  return lines.length === 0 ? answer : `${answer}\n\n${lines.join('\n')}`;
}
