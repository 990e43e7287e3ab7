/** The MIME type of a file to upload, from its name, and whether platforms show it as an image or a voice note. */
import path from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.zip': 'application/zip',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg', // Ogg Opus (RFC 7845's extension): a voice note where the platform has them
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.svg': 'image/svg+xml',
};

/** Images platforms show inline (svg is sent as a document: no platform renders it as a photo). */
const PHOTO_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The file's MIME type by extension (application/octet-stream when unknown). */
export function mimeTypeOf(fileName: string): string {
  return TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** The file extension for a MIME type from a download (`.bin` when unknown). */
export function extensionOf(mimeType: string): string {
  const found = Object.entries(TYPES).find(([, type]) => type === mimeType);
  return found?.[0] ?? '.bin';
}

/** `image` for the types platforms show as photos, `voice` for an Ogg Opus `.opus` file (voice answers), else `document`. */
export function mediaKindOf(mimeType: string, fileName = ''): 'image' | 'document' | 'voice' {
  if (PHOTO_TYPES.has(mimeType)) return 'image';
  return path.extname(fileName).toLowerCase() === '.opus' ? 'voice' : 'document';
}
