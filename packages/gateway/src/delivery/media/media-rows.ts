/**
 * An answer's attachments on their way through the outbox: the MEDIA lines resolved into files
 * (rows of kind `media`, the path in `text`) and notes (text), and, at send time, a media row
 * turned back into the adapter's `OutboundMedia`, or the text that stands in for a failed upload.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { OutboundMedia } from '@hermes/protocol';
import { extractMediaLines } from './media-lines.js';
import { type MediaAsker, type MediaSourceOptions, resolveMedia } from './media-source.js';
import { mediaKindOf, mimeTypeOf } from './media-type.js';

export interface AnswerParts {
  /** the answer's text, notes about files not sent appended */
  text: string;
  /** absolute paths of the files to upload, in order */
  files: string[];
}

/** Takes the MEDIA lines out of an answer and checks each file for `asker`; `extra` are paths given apart (send_message). */
export async function answerParts(
  markdown: string,
  options: MediaSourceOptions,
  extra: readonly string[] = [],
  asker: MediaAsker = {},
): Promise<AnswerParts> {
  const { text, refs } = extractMediaLines(markdown);
  const all = [...refs, ...extra];
  if (all.length === 0) return { text, files: [] };
  const files: string[] = [];
  const notes: string[] = [];
  for (const ref of all) {
    const resolved = await resolveMedia(ref, options, asker);
    if (resolved.ok) files.push(resolved.path);
    else notes.push(resolved.note);
  }
  return { text: [text, ...notes].filter((part) => part.trim() !== '').join('\n\n'), files };
}

/** The adapter's message for a media row; a string says why the file cannot be sent now. */
export async function outboundMedia(
  filePath: string,
  common: Omit<OutboundMedia, 'path' | 'fileName' | 'mimeType' | 'kind' | 'size'>,
): Promise<OutboundMedia | string> {
  const fileName = path.basename(filePath);
  try {
    const info = await stat(filePath);
    if (!info.isFile()) return 'not a regular file';
    const mimeType = mimeTypeOf(fileName);
    return { ...common, path: filePath, fileName, mimeType, kind: mediaKindOf(mimeType, fileName), size: info.size };
  } catch {
    return 'the file is gone';
  }
}

/** The text sent instead of an upload that failed: it names the file. */
export function uploadFallbackText(filePath: string, error: string): string {
  return `📎 Could not upload ${path.basename(filePath)} (${error}).`;
}
