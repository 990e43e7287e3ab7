/**
 * `POST <base>/images/generations` with `{model, prompt, n: 1, size?}`; the answer's first image is
 * taken as `b64_json` (bytes) or `url` (downloaded by the host through its SSRF guard).
 */
import {
  asArray,
  asObject,
  asString,
  defineImageGenProvider,
  type GeneratedImage,
  type ImageGenRequest,
  requestJson,
} from '@hermes/plugin-sdk';

/** base64 of a large PNG is several MB */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The image's type from its first bytes (PNG, JPEG, GIF, WebP); PNG when unknown (the API's default). */
export function sniffImageType(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, 12)).toString('hex');
  if (hex.startsWith('89504e47')) return 'image/png';
  if (hex.startsWith('ffd8ff')) return 'image/jpeg';
  if (hex.startsWith('47494638')) return 'image/gif';
  if (hex.startsWith('52494646') && hex.slice(16, 24) === '57454250') return 'image/webp';
  return 'image/png';
}

async function generate(request: ImageGenRequest): Promise<GeneratedImage> {
  const base = request.baseUrl.replace(/\/+$/, '');
  const answer = await requestJson('image generation', `${base}/images/generations`, {
    method: 'POST',
    headers: request.apiKey === '' ? {} : { authorization: `Bearer ${request.apiKey}` },
    body: { model: request.model, prompt: request.prompt, n: 1, ...(request.size ? { size: request.size } : {}) },
    signal: request.signal,
    maxBytes: MAX_ANSWER_BYTES,
  });
  const first = asObject(asArray(asObject(answer).data)[0]);
  const b64 = asString(first.b64_json);
  if (b64) {
    const bytes = Buffer.from(b64, 'base64');
    if (bytes.length === 0) throw new Error('image generation answered an empty b64_json');
    return { bytes, mimeType: sniffImageType(bytes) };
  }
  const url = asString(first.url);
  if (url) return { url };
  throw new Error('image generation answered no image (expected data[0].b64_json or data[0].url)');
}

export const openAiImageProvider = defineImageGenProvider({
  name: 'openai',
  isAvailable: () => true,
  generate,
});
