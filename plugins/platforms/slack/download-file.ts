/** Fetches one Slack private file (bearer auth) into the attachment cache as `<cacheDir>/<file id>-<name>`. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCached, storeCached } from '@hermes/plugin-sdk';
import type { PendingFile } from './attachments.js';

export interface DownloadTarget {
  token: string;
  cacheDir: string;
  /** the Web API base: its origin may serve files too (a self-hosted proxy, a test server) */
  apiUrl: string;
  maxFileBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Slack serves private files from files.slack.com; the bot token is sent nowhere else. */
export function mayCarryToken(url: URL, apiUrl: string): boolean {
  if (url.origin === new URL(apiUrl).origin) return true;
  return url.protocol === 'https:' && (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com'));
}

/** Downloads `file` unless the cache already holds it; resolves with its local path, rejects with the reason. */
export async function downloadFile(file: PendingFile, target: DownloadTarget): Promise<string> {
  const { ref } = file;
  if (ref.url === undefined) throw new Error('slack: the event gives no url_private for this file');
  if (ref.size !== undefined && ref.size > target.maxFileBytes) {
    throw new Error(`slack: file is ${ref.size} bytes, over max_file_bytes (${target.maxFileBytes})`);
  }
  const url = new URL(ref.url);
  if (!mayCarryToken(url, target.apiUrl)) throw new Error(`slack: refusing to send the bot token to ${url.host}`);
  const dest = join(target.cacheDir, file.cacheName);
  if (await isCached(dest)) return dest;
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${target.token}` },
    // a redirect means Slack did not accept the token (it sends the sign-in page)
    redirect: 'manual',
    signal: AbortSignal.any([target.signal, AbortSignal.timeout(target.timeoutMs)]),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`slack: file download answered HTTP ${response.status}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/html') && ref.mimeType !== 'text/html') {
    await response.body?.cancel();
    throw new Error('slack: file download gave an HTML page (is the files:read scope granted?)');
  }
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length > target.maxFileBytes) throw new Error(`slack: file is over max_file_bytes (${target.maxFileBytes})`);
  return storeCached(dest, (partial) => writeFile(partial, data));
}
