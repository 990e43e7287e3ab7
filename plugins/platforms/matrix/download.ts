/**
 * Fetching one received file from the content repository into the attachment cache: through the
 * authenticated endpoint of Matrix 1.11 (`GET /_matrix/client/v1/media/download/{server}/{id}`,
 * with the token) when the server offers it, else the older unauthenticated one
 * (`/_matrix/media/v3/download/...`); a 404 or 400 from the first tries the other (servers that
 * froze unauthenticated media answer it so). Cached as `<cacheDir>/<media id>-<name>`; a body over
 * media.max_bytes is refused while it is read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCached, safeFileName, storeCached } from '@hermes/plugin-sdk';
import { apiPath, MatrixApiError, type MatrixClient } from './client.js';
import type { PendingMatrixFile } from './events.js';

const AUTHENTICATED = '/_matrix/client/v1/media/download/{}/{}';
const LEGACY = '/_matrix/media/v3/download/{}/{}';

async function readCapped(response: Response, maxBytes: number | undefined, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (maxBytes !== undefined && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`${what} is ${declared} bytes, over media.max_bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (response.body !== null) {
    for await (const chunk of response.body) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) throw new Error(`${what} is over media.max_bytes`);
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}

/** Downloads `file` unless the cache holds it; resolves with its local path. */
export async function downloadMedia(
  file: PendingMatrixFile,
  target: {
    client: MatrixClient;
    authenticatedMedia: boolean;
    cacheDir: string;
    maxBytes?: number | undefined;
    signal: AbortSignal;
  },
): Promise<string> {
  const dest = join(target.cacheDir, `${safeFileName(file.mediaId)}-${file.fileName}`);
  if (await isCached(dest)) return dest;
  const order = target.authenticatedMedia ? [AUTHENTICATED, LEGACY] : [LEGACY, AUTHENTICATED];
  const what = `mxc://${file.server}/${file.mediaId}`;
  let response: Response | undefined;
  for (const [i, template] of order.entries()) {
    try {
      response = await target.client.download(apiPath(template, file.server, file.mediaId), target.signal);
      break;
    } catch (error) {
      const fallThrough =
        error instanceof MatrixApiError && (error.status === 404 || error.status === 400) && i < order.length - 1;
      if (!fallThrough) throw error;
    }
  }
  if (response === undefined) throw new Error(`matrix: ${what} could not be downloaded`);
  const data = await readCapped(response, target.maxBytes, what);
  file.attachment.size = data.length;
  return storeCached(dest, (partial) => writeFile(partial, data));
}
