/**
 * The video-generation provider contract: what a plugin registers with
 * `ctx.registerVideoGenProvider` (plugins/video_gen/<name>/). Registered, checked and listed; no
 * tool of Hermes calls it yet.
 */

/** One request: the prompt, and where and how to ask. */
export interface VideoGenRequest {
  prompt: string;
  /** e.g. `1280x720`; absent: the provider's default */
  size?: string;
  /** seconds of video; absent: the provider's default */
  durationS?: number;
  model: string;
  /** an OpenAI-compatible base URL (ending in /v1) */
  baseUrl: string;
  /** may be empty for a local server */
  apiKey: string;
  signal: AbortSignal;
}

/** The video: its bytes, or a URL to download them from. */
export type GeneratedVideo = { bytes: Uint8Array; mimeType: string } | { url: string };

export interface VideoGenProvider {
  /** the provider's name (lower case: letters, digits, `-`, `_`) */
  name: string;
  /** false when the provider cannot work here (a missing key, ...) */
  isAvailable(): boolean;
  /** generates one video; throws an Error with a readable message on failure */
  generate(request: VideoGenRequest): Promise<GeneratedVideo>;
}
