/**
 * The image-generation provider contract: what a plugin registers with
 * `ctx.registerImageGenProvider` (plugins/image_gen/<name>/), chosen by `image_gen.provider`, and
 * called by the `image_generate` tool.
 */

/** One request: the prompt, and where and how to ask (from `image_gen.*` and the model's settings). */
export interface ImageGenRequest {
  prompt: string;
  /** e.g. `1024x1024`; absent: the provider's default */
  size?: string;
  /** `image_gen.model` */
  model: string;
  /** `image_gen.base_url`, else the model's base URL (OpenAI-compatible, ending in /v1) */
  baseUrl: string;
  /** the model's API key (may be empty for a local server) */
  apiKey: string;
  /** aborted when the tool call times out or the turn is interrupted */
  signal: AbortSignal;
}

/** The image: its bytes, or a URL to download them from (fetched by the host, SSRF-guarded). */
export type GeneratedImage = { bytes: Uint8Array; mimeType: string } | { url: string };

export interface ImageGenProvider {
  /** what `image_gen.provider` names (`openai`) */
  name: string;
  /** false when the provider cannot work here (a missing key, ...) */
  isAvailable(): boolean;
  /** generates one image; throws an Error with a readable message on failure */
  generate(request: ImageGenRequest): Promise<GeneratedImage>;
}
