// Files upload v2 of the fake Slack Web API, as @slack/web-api's filesUploadV2 drives it:
// files.getUploadURLExternal (filename, length) answers an upload URL and a file id; the client
// POSTs the bytes there (multipart, the file in a `body` part as the SDK sends it, or a raw body);
// files.completeUploadExternal (files: [{id, title}], channel_id, thread_ts?) shares them.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { multipartBoundary, parseMultipartBody } from './multipart.js';

/** One file shared into a channel by files.completeUploadExternal. */
export interface SharedFile {
  id: string;
  channel: string;
  thread_ts?: string;
  name: string;
  title: string;
  size: number;
  /** hex sha256 of the uploaded bytes */
  sha256: string;
  initial_comment?: string;
}

type Params = Record<string, unknown>;
type Answer = { status: number; body: object };

const ok = (body: Params = {}): Answer => ({ status: 200, body: { ok: true, ...body } });
const failed = (error: string): Answer => ({ status: 200, body: { ok: false, error } });

export const UPLOAD_PREFIX = '/upload/v1/';

export interface SlackUploads {
  readonly shared: readonly SharedFile[];
  getUploadUrl(params: Params): Answer;
  /** POST /upload/v1/<file id>: the bytes of a file */
  upload(req: IncomingMessage, raw: Buffer, res: ServerResponse, path: string): void;
  complete(params: Params, knownChannel: (id: string) => boolean): Answer;
  reset(): void;
}

export function createSlackUploads(origin: () => string): SlackUploads {
  const pending = new Map<string, { filename: string; length: number; data?: Buffer }>();
  const shared: SharedFile[] = [];
  return {
    shared,
    getUploadUrl(params) {
      const filename = typeof params.filename === 'string' ? params.filename : '';
      const length = Number(params.length);
      if (filename === '') return failed('invalid_arguments');
      if (!Number.isInteger(length) || length <= 0) return failed('invalid_arguments');
      const id = `F${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
      pending.set(id, { filename, length });
      return ok({ upload_url: `${origin()}${UPLOAD_PREFIX}${id}`, file_id: id });
    },
    upload(req, raw, res, path) {
      const id = path.slice(UPLOAD_PREFIX.length);
      const entry = pending.get(id);
      if (entry === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('unknown upload');
        return;
      }
      const boundary = multipartBoundary(req.headers['content-type'] ?? '');
      const data = boundary === null ? raw : (parseMultipartBody(raw, boundary).files[0]?.data ?? Buffer.alloc(0));
      entry.data = data;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`OK - ${data.length}`);
    },
    complete(params, knownChannel) {
      let files: unknown = params.files;
      if (typeof files === 'string') {
        try {
          files = JSON.parse(files);
        } catch {
          return failed('invalid_arguments');
        }
      }
      if (!Array.isArray(files) || files.length === 0) return failed('invalid_arguments');
      const channel = typeof params.channel_id === 'string' ? params.channel_id : undefined;
      if (channel !== undefined && !knownChannel(channel)) return failed('channel_not_found');
      const threadTs = typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
      const comment = typeof params.initial_comment === 'string' ? params.initial_comment : undefined;
      const done: SharedFile[] = [];
      for (const file of files as { id?: unknown; title?: unknown }[]) {
        const entry = typeof file.id === 'string' ? pending.get(file.id) : undefined;
        if (entry?.data === undefined || typeof file.id !== 'string') return failed('file_not_found');
        if (entry.data.length !== entry.length) return failed('file_upload_size_mismatch');
        done.push({
          id: file.id,
          channel: channel ?? '',
          ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
          name: entry.filename,
          title: typeof file.title === 'string' ? file.title : entry.filename,
          size: entry.data.length,
          sha256: createHash('sha256').update(entry.data).digest('hex'),
          ...(comment === undefined ? {} : { initial_comment: comment }),
        });
      }
      for (const file of done) pending.delete(file.id);
      if (channel !== undefined) shared.push(...done);
      return ok({ files: done.map((f) => ({ id: f.id, title: f.title, name: f.name, size: f.size })) });
    },
    reset() {
      pending.clear();
      shared.length = 0;
    },
  };
}
