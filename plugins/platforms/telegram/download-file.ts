/** Fetches one Telegram file into the attachment cache, as `<cacheDir>/<file_unique_id>-<name>`. */
import { copyFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { isCached, storeCached } from '@hermes/plugin-sdk';
import type { Api } from 'grammy';
import type { PendingFile } from './attachments.js';
import { grammySignal } from './grammy-signal.js';

export interface DownloadTarget {
  api: Api;
  apiRoot: string;
  token: string;
  cacheDir: string;
  signal: AbortSignal;
}

/** Downloads `file` unless the cache already holds it; resolves with its local path. */
export async function downloadFile(file: PendingFile, target: DownloadTarget): Promise<string> {
  const dest = join(target.cacheDir, `${file.fileUniqueId}-${file.fileName}`);
  if (await isCached(dest)) return dest;
  const info = await target.api.getFile(file.fileId, grammySignal(target.signal));
  const filePath = info.file_path;
  if (filePath === undefined) throw new Error(`telegram: getFile gave no file_path for ${file.fileId}`);
  // a local Bot API server (--local) answers with a path on this machine
  if (isAbsolute(filePath)) return storeCached(dest, (partial) => copyFile(filePath, partial));
  const url = `${target.apiRoot}/file/bot${target.token}/${filePath.split('/').map(encodeURIComponent).join('/')}`;
  const response = await fetch(url, { signal: target.signal });
  if (!response.ok) throw new Error(`telegram: file download failed with HTTP ${response.status}`);
  const data = Buffer.from(await response.arrayBuffer());
  return storeCached(dest, (partial) => writeFile(partial, data));
}
