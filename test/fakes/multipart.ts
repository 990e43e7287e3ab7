// A small multipart/form-data reader for the fakes: fields as text, files with their name, size,
// type and a digest of their bytes (byte-exact: parts are cut on the raw body).
import { createHash } from 'node:crypto';

export interface MultipartFile {
  /** the form field (`files[0]`, `file`) */
  field: string;
  fileName: string;
  contentType: string;
  size: number;
  /** hex sha256 of the bytes */
  sha256: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

/** The boundary of a multipart content type, or null. */
export function multipartBoundary(contentType: string): string | null {
  if (!contentType.includes('multipart/form-data')) return null;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

export function parseMultipartBody(raw: Buffer, boundary: string): MultipartBody {
  const body: MultipartBody = { fields: {}, files: [] };
  const text = raw.toString('latin1');
  for (const part of text.split(`--${boundary}`)) {
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = part.slice(0, headerEnd);
    const data = Buffer.from(part.slice(headerEnd + 4).replace(/\r\n$/, ''), 'latin1');
    const field = /(?:^|[;:\s])name="([^"]*)"/i.exec(headers)?.[1];
    if (field === undefined) continue;
    const quoted = /filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(headers);
    const fileName = quoted === null ? undefined : (quoted[1] ?? quoted[2]);
    if (fileName === undefined) {
      body.fields[field] = data.toString('utf8');
      continue;
    }
    const contentType = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
    const sha256 = createHash('sha256').update(data).digest('hex');
    body.files.push({ field, fileName, contentType, size: data.length, sha256, data });
  }
  return body;
}
