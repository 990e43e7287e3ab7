// A fake of xAI's speech to text REST endpoint on 127.0.0.1, as docs.x.ai describes it:
// `POST /v1/stt` with `Authorization: Bearer <XAI_API_KEY>` and a multipart form whose `file` part
// comes after every other field; the answer is `{text, language, duration, words}`. A wrong key is a
// 401 and a form without `file`, or with fields after it, a 400, both in xAI's `{code, error}` shape.
// Every request is recorded (its fields in order and the file); answers can be scripted.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { multipartBoundary, parseMultipartBody } from './multipart.js';

export interface XaiSttRequest {
  authorization: string | undefined;
  /** the form's part names, in the order sent */
  fields: string[];
  /** the text fields' values */
  values: Record<string, string>;
  file: { fileName: string; contentType: string; data: Buffer } | undefined;
}

export type XaiSttReply = { text: string } | { status: number; error: string };

export interface FakeXaiStt {
  /** the API root, with its /v1 (what XAI_BASE_URL or stt.base_url names) */
  url: string;
  key: string;
  requests: XaiSttRequest[];
  /** queues the answers of the next requests (default: a transcript naming the file's size) */
  script(...replies: XaiSttReply[]): void;
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export async function startFakeXaiStt(options: { key?: string } = {}): Promise<FakeXaiStt> {
  const key = options.key ?? 'xai-fake-stt-key-0123456789';
  const requests: XaiSttRequest[] = [];
  const queue: XaiSttReply[] = [];

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/v1/stt' || req.method !== 'POST') return json(res, 404, { code: 'Not found', error: path });
    const raw = await readBody(req);
    const boundary = multipartBoundary(req.headers['content-type'] ?? '');
    const form = boundary === null ? null : parseMultipartBody(raw, boundary);
    const fields = [...raw.toString('latin1').matchAll(/content-disposition:\s*form-data;\s*name="([^"]*)"/gi)].map(
      (m) => m[1] ?? '',
    );
    const file = form?.files.find((f) => f.field === 'file');
    requests.push({
      authorization: req.headers.authorization,
      fields,
      values: form?.fields ?? {},
      file: file && { fileName: file.fileName, contentType: file.contentType, data: file.data },
    });
    if (req.headers.authorization !== `Bearer ${key}`) {
      return json(res, 401, {
        code: 'The caller does not have permission to execute the specified operation',
        error: 'Incorrect API key provided. You can obtain an API key from https://console.x.ai.',
      });
    }
    if (file === undefined || fields.at(-1) !== 'file') {
      return json(res, 400, {
        code: 'Client specified an invalid argument',
        error: 'a multipart `file` part is required, after all other fields',
      });
    }
    const reply = queue.shift() ?? { text: `a voice note of ${file.data.length} bytes` };
    if ('status' in reply) return json(res, reply.status, { code: 'Error', error: reply.error });
    json(res, 200, { text: reply.text, language: '', duration: 1.5, words: [] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    key,
    requests,
    script: (...replies) => void queue.push(...replies),
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
