/** What a cached file is: an image by its bytes (not by the name or the claimed MIME type), or text-like. */

/** The image formats the model accepts as `image_url` parts, recognised by their first bytes. */
const SIGNATURES: readonly { mime: string; test(head: Buffer): boolean }[] = [
  {
    mime: 'image/png',
    test: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { mime: 'image/jpeg', test: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  { mime: 'image/gif', test: (h) => /^GIF8[79]a/.test(h.subarray(0, 6).toString('latin1')) },
  {
    mime: 'image/webp',
    test: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The image's MIME type from its first bytes, or null when it is no image the model can read (corrupt, other format). */
export function sniffImage(head: Buffer): string | null {
  return SIGNATURES.find((s) => s.test(head))?.mime ?? null;
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/x-ndjson',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/javascript',
  'application/x-sh',
  'application/sql',
]);
const TEXT_EXTENSIONS =
  /\.(txt|md|markdown|csv|tsv|json|jsonl|ya?ml|toml|xml|log|ini|cfg|conf|sh|py|js|ts|sql|html?|css)$/i;

/** The MIME type without parameters, lower-cased (`Text/Plain; charset=x` → `text/plain`). */
export function bareMime(mimeType: string | undefined): string {
  return (mimeType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** text/*, JSON, CSV, YAML, Markdown and the like, by MIME type or, failing that, by the file name. */
export function isTextLike(mimeType: string | undefined, name: string | undefined): boolean {
  const mime = bareMime(mimeType);
  if (mime.startsWith('text/') || TEXT_TYPES.has(mime) || mime.endsWith('+json') || mime.endsWith('+xml')) return true;
  const vague = mime === '' || mime === 'application/octet-stream';
  return vague && name !== undefined && TEXT_EXTENSIONS.test(name);
}

/** The bytes as UTF-8 text, or null when they are not (a NUL byte or an invalid sequence): binary. */
export function decodeText(data: Buffer): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}
