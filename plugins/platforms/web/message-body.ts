/**
 * Reading `POST /chat/api/messages`: JSON `{ text }`, or multipart/form-data with a `text` field and
 * an optional `file` (saved into the media cache). Every refusal names what was wrong.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { attachmentKind, safeFileName, storeCached } from '@hermes/plugin-sdk';
import type { Attachment, DownloadGate, RouteRequest } from '@hermes/protocol';

/** The longest text one message may carry, in characters. */
export const MAX_TEXT_LENGTH = 32_000;

export type ParsedMessage =
  | { ok: true; text: string; attachment?: Attachment }
  | { ok: false; status: 400 | 413 | 415; error: string };

export interface BodyLimits {
  /** media.max_bytes (absent: no cap of the plugin's own) */
  maxFileBytes?: number | undefined;
  cacheDir: string;
  /** the gateway's rule for storing a sender's files: a visitor's (stranger's) upload is not stored */
  downloads?: DownloadGate | undefined;
}

const bad = (error: string): ParsedMessage => ({ ok: false, status: 400, error });

function checkText(value: unknown, where: string): string | ParsedMessage {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return bad(`${where} must be a string`);
  if (value.length > MAX_TEXT_LENGTH) {
    return { ok: false, status: 413, error: `${where} is ${value.length} characters; at most ${MAX_TEXT_LENGTH}` };
  }
  return value;
}

async function fromMultipart(
  body: Buffer,
  contentType: string,
  limits: BodyLimits,
  sender: string,
): Promise<ParsedMessage> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    return bad(`the multipart body could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = checkText(form.get('text') ?? undefined, 'the form field "text"');
  if (typeof text !== 'string') return text;
  const file = form.get('file');
  if (file === null) return { ok: true, text };
  if (typeof file === 'string') return bad('the form field "file" must be a file, not text');
  if (file.size === 0) return bad(`the file "${file.name}" is empty`);
  if (limits.maxFileBytes !== undefined && file.size > limits.maxFileBytes) {
    return {
      ok: false,
      status: 413,
      error: `the file "${file.name}" is ${file.size} bytes; media.max_bytes allows ${limits.maxFileBytes}`,
    };
  }
  const fileName = safeFileName(file.name || 'upload');
  const mimeType = file.type || 'application/octet-stream';
  const refused = (await limits.downloads?.admit(sender, file.size)) ?? null;
  if (refused !== null) {
    return {
      ok: true,
      text,
      attachment: { kind: attachmentKind(mimeType), path: null, fileName, mimeType, size: file.size, refused },
    };
  }
  const dest = join(limits.cacheDir, `web-${randomBytes(8).toString('hex')}-${fileName}`);
  const bytes = Buffer.from(await file.arrayBuffer());
  await storeCached(dest, (partial) => writeFile(partial, bytes, { mode: 0o600 }));
  limits.downloads?.record(sender, file.size);
  return {
    ok: true,
    text,
    attachment: { kind: attachmentKind(mimeType), path: dest, fileName, mimeType, size: file.size },
  };
}

/** The message a request carries, or why it carries none. */
export async function parseMessageBody(
  request: Pick<RouteRequest, 'headers' | 'body'>,
  limits: BodyLimits,
  sender = '',
): Promise<ParsedMessage> {
  const raw = request.headers['content-type'];
  const contentType = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  let parsed: ParsedMessage;
  if (Buffer.isBuffer(request.body) && contentType.toLowerCase().startsWith('multipart/form-data')) {
    parsed = await fromMultipart(request.body, contentType, limits, sender);
  } else if (typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)) {
    const text = checkText((request.body as { text?: unknown }).text, '"text"');
    parsed = typeof text === 'string' ? { ok: true, text } : text;
  } else {
    return {
      ok: false,
      status: 415,
      error: 'send JSON { "text": "..." } or multipart/form-data with "text" and "file"',
    };
  }
  if (parsed.ok && parsed.text.trim() === '' && parsed.attachment === undefined) {
    return bad('the message has no text and no file');
  }
  return parsed;
}
