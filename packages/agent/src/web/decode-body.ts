/**
 * Turning a fetched body into text: which media types are text, and which charset to decode
 * with (a BOM, then the Content-Type charset, then an HTML `<meta charset>` in the first bytes,
 * then UTF-8). Unknown charset labels fall back to UTF-8; invalid bytes become U+FFFD.
 */

import { TextDecoder } from 'node:util';

/** Bytes of an HTML body searched for `<meta charset>`. */
const META_SNIFF_BYTES = 2048;

const TEXT_TYPES = new Set([
  'application/xhtml+xml',
  'application/xml',
  'application/json',
  'application/ld+json',
  'application/javascript',
  'application/x-javascript',
  'application/rss+xml',
  'application/atom+xml',
  'application/x-www-form-urlencoded',
]);

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether a body of this media type is worth reading as text (no type at all counts as text). */
export function isTextual(type: string): boolean {
  return type === '' || type.startsWith('text/') || TEXT_TYPES.has(type) || /\+(xml|json)$/.test(type);
}

/** Whether the media type is HTML. */
export function isHtml(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml';
}

function charsetParam(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m?.[1] ?? null;
}

function bomCharset(bytes: Uint8Array): { label: string; skip: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { label: 'utf-8', skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { label: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { label: 'utf-16be', skip: 2 };
  return null;
}

function metaCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, META_SNIFF_BYTES)).toString('latin1');
  const direct = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return direct?.[1] ?? null;
}

function decoderFor(label: string): TextDecoder {
  try {
    return new TextDecoder(label, { fatal: false });
  } catch {
    // an unknown label in a header or meta tag: UTF-8 is the web's default
    return new TextDecoder('utf-8', { fatal: false });
  }
}

/** Decodes a body to text with the charset rules above. */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): string {
  const bom = bomCharset(bytes);
  if (bom) return decoderFor(bom.label).decode(bytes.subarray(bom.skip));
  const label =
    charsetParam(contentType) ?? (isHtml(mediaType(contentType)) || !contentType ? metaCharset(bytes) : null);
  return decoderFor(label ?? 'utf-8').decode(bytes);
}
