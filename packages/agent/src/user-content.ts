/**
 * The images of a user message: the transcript keeps a reference (the cached path, as a text note),
 * and the request carries OpenAI content parts whose `data:` URLs are built from the file when the
 * request is built, so state.db never holds the image bytes.
 */
import { readFile } from 'node:fs/promises';
import type { ChatMessage, HermesError } from '@hermes/protocol';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** An image the user sent, already in the media cache. */
export interface TurnImage {
  /** absolute path in HERMES_HOME/cache/media */
  path: string;
  /** its MIME type, e.g. image/png (sniffed from the bytes) */
  mimeType: string;
  /** the name the user's platform gave it */
  name?: string;
}

/** How a turn's images reach the model: as content parts, or as notes naming the cached path. */
export type ImageMode = 'parts' | 'notes';

/** The note that stands for an image in the transcript (and in the request when vision is off). */
export function imageNote(image: TurnImage, mode: ImageMode | 'refused'): string {
  const name = image.name ?? 'image';
  if (mode === 'parts') return `[image ${name}: ${image.path}]`;
  const why = mode === 'refused' ? 'the model refused image input' : 'vision is off (model.vision)';
  return `[image ${name} not shown (${why}); the file is at ${image.path}]`;
}

/** The user's text with one note per image: what the transcript stores. */
export function withImageNotes(text: string, images: readonly TurnImage[], mode: ImageMode | 'refused'): string {
  if (images.length === 0) return text;
  const notes = images.map((image) => imageNote(image, mode)).join('\n');
  return text === '' ? notes : `${text}\n\n${notes}`;
}

/** One `image_url` part per image, each a data: URL read from the cache now; an unreadable file becomes a note. */
export async function imageParts(images: readonly TurnImage[]): Promise<ChatCompletionContentPart[]> {
  const parts: ChatCompletionContentPart[] = [];
  for (const image of images) {
    try {
      const data = await readFile(image.path);
      parts.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${data.toString('base64')}` } });
    } catch {
      parts.push({ type: 'text', text: `[image ${image.name ?? 'image'} is no longer in the cache: ${image.path}]` });
    }
  }
  return parts;
}

/** The request's user message: the text part first, then the images. */
export function userWithParts(text: string, parts: readonly ChatCompletionContentPart[]): ChatCompletionMessageParam {
  return { role: 'user', content: [{ type: 'text', text }, ...parts] };
}

/** The message list of a request: transcript messages plus, possibly, a user message with parts. */
export type RequestMessage = ChatMessage | ChatCompletionMessageParam;

/** True for the model's 400 (a request it refuses, e.g. image input to a text-only model). */
export function isBadRequest(error: unknown): boolean {
  const status = (error as HermesError | undefined)?.cause;
  if (typeof status === 'object' && status !== null && (status as { status?: unknown }).status === 400) return true;
  return error instanceof Error && /answered HTTP 400\b/.test(error.message);
}
