/**
 * The step that turns a message's downloaded files into what the model gets: images as image parts
 * (built when the request is, from the cached path), voice notes and audio as `[voice] <transcript>`,
 * text-like documents inlined in a fenced block headed by the file name, anything else a note with
 * the cached path. What the user should know (a file over media.max_bytes, an empty, corrupt or
 * undownloaded file, a failed transcription) comes back as notices for the reply.
 */
import { open, readFile, stat } from 'node:fs/promises';
import type { TurnImage } from '@hermes/agent';
import type { Attachment, MessageEvent } from '@hermes/protocol';
import { bareMime, decodeText, isTextLike, sniffImage } from './file-types.js';
import { type SttSettings, TranscriptionError, transcribe } from './transcribe.js';

export const INLINE_TEXT_MAX_BYTES = 100 * 1024;

export interface MediaSettings {
  /** media.max_bytes */
  maxBytes: number;
  /** null: no transcription endpoint (voice notes become a note naming the file) */
  stt: SttSettings | null;
}

export interface PreparedMessage {
  /** the user message's text for the model (voice transcripts, caption, inlined documents, notes) */
  text: string;
  images: TurnImage[];
  /** sentences for the user, put before the answer */
  notices: string[];
}

/** True when the event carries files: the only events this step has work for. */
export function hasAttachments(event: MessageEvent): boolean {
  return event.attachments !== undefined && event.attachments.length > 0;
}

/** The media step as the turn stage calls it, with the gateway's media settings. */
export const mediaStep =
  (settings: MediaSettings) =>
  (event: MessageEvent, text: string, signal: AbortSignal): Promise<PreparedMessage> =>
    prepareInbound(event, text, settings, signal);

/** The platforms' download folder and cap (media.max_bytes) from the gateway's settings. */
export function cachePorts(settings: { cacheDir: string; media?: MediaSettings | undefined }): {
  cacheDir: string;
  mediaMaxBytes: number | undefined;
} {
  return { cacheDir: settings.cacheDir, mediaMaxBytes: settings.media?.maxBytes };
}

/** `20 MB`, `512 KB`, `17 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}

async function head(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A fence longer than any run of backticks in the text. */
function fenced(name: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${name}:\n${fence}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

const isAudio = (a: Attachment): boolean => a.kind === 'audio' || bareMime(a.mimeType).startsWith('audio/');
const isImage = (a: Attachment): boolean => a.kind === 'photo' || bareMime(a.mimeType).startsWith('image/');

interface Parts {
  voice: string[];
  blocks: string[];
  notes: string[];
  images: TurnImage[];
  notices: string[];
}

/** One downloaded file, whose size is within the cap. */
async function addFile(
  file: Attachment & { path: string },
  size: number,
  parts: Parts,
  settings: MediaSettings,
  signal?: AbortSignal,
): Promise<void> {
  const name = file.fileName ?? 'file';
  const mime = bareMime(file.mimeType) || 'unknown type';
  if (isImage(file)) {
    const type = sniffImage(await head(file.path, 16));
    if (type !== null) {
      parts.images.push({ path: file.path, mimeType: type, name });
      return;
    }
    parts.notices.push(
      `${name} is not an image I can read (corrupt, or not PNG, JPEG, GIF or WebP); it was passed on as a file.`,
    );
    parts.notes.push(`[file ${name} (${mime}, not a readable image, ${formatBytes(size)}): ${file.path}]`);
    return;
  }
  if (isAudio(file)) {
    if (settings.stt === null) {
      parts.notes.push(`[audio ${name} (not transcribed: no transcription endpoint): ${file.path}]`);
      return;
    }
    try {
      const transcript = await transcribe(file, settings.stt, signal);
      parts.voice.push(`[voice] ${transcript}`);
    } catch (error) {
      if (!(error instanceof TranscriptionError)) throw error;
      parts.notices.push(`I could not transcribe ${name}: ${error.message}.`);
      parts.notes.push(`[audio ${name} (transcription failed): ${file.path}]`);
    }
    return;
  }
  if (isTextLike(file.mimeType, name) && size <= INLINE_TEXT_MAX_BYTES) {
    const text = decodeText(await readFile(file.path));
    if (text !== null) {
      parts.blocks.push(fenced(name, text));
      return;
    }
  }
  const why = isTextLike(file.mimeType, name) && size > INLINE_TEXT_MAX_BYTES ? ', too long to inline' : '';
  parts.notes.push(`[file ${name} (${mime}, ${formatBytes(size)}${why}): ${file.path}]`);
}

/** Builds the user message of `event` (whose text is `text`) from its files; never throws for a bad file. */
export async function prepareInbound(
  event: MessageEvent,
  text: string,
  settings: MediaSettings,
  signal?: AbortSignal,
): Promise<PreparedMessage> {
  const parts: Parts = { voice: [], blocks: [], notes: [], images: [], notices: [] };
  const limit = formatBytes(settings.maxBytes);
  for (const file of event.attachments ?? []) {
    const name = file.fileName ?? 'file';
    if (file.refused !== undefined) {
      parts.notices.push(`${name} was not stored: ${file.refused}.`);
      parts.notes.push(`[the user sent ${name}, which was not stored: ${file.refused}]`);
      continue;
    }
    if (file.size !== undefined && file.size > settings.maxBytes) {
      parts.notices.push(
        `${name} is ${formatBytes(file.size)}, over the ${limit} limit (media.max_bytes); it was not passed on.`,
      );
      parts.notes.push(`[the user sent ${name} (${formatBytes(file.size)}), over the size limit; not available]`);
      continue;
    }
    const path = file.path;
    const size =
      path === null
        ? null
        : await stat(path).then(
            (s) => s.size,
            () => null,
          );
    if (path === null || size === null) {
      parts.notices.push(`I could not download ${name}; it was not passed on.`);
      parts.notes.push(`[the user sent ${name}, which could not be downloaded]`);
    } else if (size === 0) {
      parts.notices.push(`${name} is empty (0 bytes); it was not passed on.`);
      parts.notes.push(`[the user sent ${name}, an empty file]`);
    } else if (size > settings.maxBytes) {
      parts.notices.push(
        `${name} is ${formatBytes(size)}, over the ${limit} limit (media.max_bytes); it was not passed on.`,
      );
      parts.notes.push(`[the user sent ${name} (${formatBytes(size)}), over the size limit; not available]`);
    } else {
      await addFile({ ...file, path }, size, parts, settings, signal);
    }
  }
  const sections = [...parts.voice, text.trim() === '' ? '' : text, ...parts.blocks, ...parts.notes];
  return { text: sections.filter((s) => s !== '').join('\n\n'), images: parts.images, notices: parts.notices };
}
