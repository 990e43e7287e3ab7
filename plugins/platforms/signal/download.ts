/**
 * Fetching one received file into the attachment cache: signal-cli has already downloaded it into
 * its attachments folder; `getAttachment { id, recipient | groupId }` hands its bytes over as base64
 * (the daemon may run elsewhere). Cached as `<cacheDir>/<attachment id>-<name>`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCached, safeFileName, storeCached } from '@hermes/plugin-sdk';
import type { PendingSignalFile } from './envelope.js';
import { isRecord, type RpcClient } from './rpc.js';

/** Downloads `file` unless the cache holds it; resolves with its local path. */
export async function downloadAttachment(
  file: PendingSignalFile,
  target: { rpc: RpcClient; cacheDir: string; maxBytes?: number | undefined; signal: AbortSignal },
): Promise<string> {
  const dest = join(target.cacheDir, `${safeFileName(file.id)}-${file.fileName}`);
  if (await isCached(dest)) return dest;
  const answer = await target.rpc.call('getAttachment', { id: file.id, ...file.from }, target.signal);
  const base64 = isRecord(answer) && typeof answer.data === 'string' ? answer.data : undefined;
  if (base64 === undefined) throw new Error(`signal: getAttachment answered no data for attachment ${file.id}`);
  const data = Buffer.from(base64, 'base64');
  if (target.maxBytes !== undefined && data.length > target.maxBytes) {
    throw new Error(`signal: attachment ${file.id} is ${data.length} bytes, over media.max_bytes`);
  }
  file.attachment.size = data.length;
  return storeCached(dest, (partial) => writeFile(partial, data));
}
