/**
 * What a `MEDIA:` reference may send. A local file: an absolute path, resolved (symlinks, `..`)
 * before it is judged; never anything under HERMES_HOME except `cache/` (the .env, config.yaml,
 * state.db, ...), never the user's keys or a process's /proc entry; with `fileGuard`, exactly what
 * `read_file` may read (`tools.file_roots`, the protected paths), plus the asking user's own
 * folder of the media cache, and never another user's (`mediaCache`); a regular, non-empty file within
 * the size cap. An https URL: downloaded through the SSRF guard (the web tools' address check) with
 * the same cap, into the cache, and sent from there.
 */
import { createHash } from 'node:crypto';
import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createFileGuard, type FileGuard, protectedReason, type SafeDownload, segmentsUnder } from '@hermes/agent';
import { safeIdentityName } from '@hermes/protocol';
import { extensionOf, mediaKindOf, mimeTypeOf } from './media-type.js';

export interface MediaSourceOptions {
  /** HERMES_HOME (with a profile: the root and the profile's): nothing under one but a `cache/` is ever sent */
  hermesHomes?: readonly string[];
  /** where downloaded files are kept (under HERMES_HOME/cache) */
  downloadDir: string;
  /** the largest file sent, in bytes */
  maxBytes: number;
  /** the guarded download for https URLs (absent: URLs are refused) */
  download?: SafeDownload;
  /** the user's home directory (default os.homedir()) */
  homeDir?: string;
  /** the file tools' guard (read_file's roots and protected paths): a local file must pass it too */
  fileGuard?: Parameters<typeof createFileGuard>[0];
  /** HERMES_HOME/cache/media: of its folders, only the asking user's own is sent from */
  mediaCache?: string;
}

/** Whose answer it is: the owner identity whose media-cache folder may be sent from. */
export interface MediaAsker {
  owner?: string | undefined;
}

const guards = new WeakMap<object, FileGuard>();
const guardOf = (options: Parameters<typeof createFileGuard>[0]): FileGuard => {
  let guard = guards.get(options);
  if (guard === undefined) {
    guard = createFileGuard(options);
    guards.set(options, guard);
  }
  return guard;
};

/** A file ready to upload, or the note that says why it is not sent. */
export type ResolvedMedia =
  | { ok: true; path: string; fileName: string; mimeType: string; kind: 'image' | 'document' | 'voice'; size: number }
  | { ok: false; note: string };

const MB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${bytes} bytes`);
const refused = (ref: string, why: string): ResolvedMedia => ({ ok: false, note: `⚠️ Not sent: ${ref}: ${why}` });

/** Resolves one reference for `asker`; never throws. */
export async function resolveMedia(
  ref: string,
  options: MediaSourceOptions,
  asker: MediaAsker = {},
): Promise<ResolvedMedia> {
  try {
    if (/^https?:\/\//i.test(ref)) return await fromUrl(ref, options);
    return await fromPath(ref, options, asker);
  } catch (error) {
    return refused(ref, error instanceof Error ? error.message : String(error));
  }
}

/** Each HERMES_HOME as given and with its symlinks resolved. */
async function homesOf(options: MediaSourceOptions): Promise<string[]> {
  const homes = (options.hermesHomes ?? []).map((home) => path.resolve(home));
  const real = await Promise.all(homes.map((home) => realpath(home).catch(() => home)));
  return [...new Set([...homes, ...real])];
}

/**
 * With a media cache: null when `real` is in the asker's own folder (sendable), a refusal when it
 * is anywhere else in the cache (another user's files), undefined when it is outside the cache.
 */
async function cacheVerdict(
  real: string,
  options: MediaSourceOptions,
  asker: MediaAsker,
): Promise<string | null | undefined> {
  if (options.mediaCache === undefined) return undefined;
  const cache = await realpath(options.mediaCache).catch(() => path.resolve(options.mediaCache ?? ''));
  const segments = segmentsUnder(cache, real);
  if (segments === null) return undefined;
  if (asker.owner !== undefined && segments.length > 1 && segments[0] === safeIdentityName(asker.owner)) return null;
  return "files in the media cache are sent only to the user who sent them (this one is not in this user's folder)";
}

/** Why `real` (symlink-free) must not be sent, or null. */
async function forbidden(real: string, options: MediaSourceOptions, asker: MediaAsker): Promise<string | null> {
  const homes = await homesOf(options);
  const inCache = homes.some((home) => segmentsUnder(home, real)?.[0] === 'cache');
  if (!inCache && homes.some((home) => segmentsUnder(home, real) !== null)) {
    return 'files in HERMES_HOME (its .env, config.yaml, state.db, ...) are never sent; only HERMES_HOME/cache is';
  }
  const cached = await cacheVerdict(real, options, asker);
  if (cached !== undefined) return cached;
  if (options.fileGuard !== undefined) {
    const guarded = await guardOf(options.fileGuard).check(real);
    if (!guarded.ok) return `read_file may not read it either (${guarded.error})`;
  }
  return protectedReason(real, { hermesHomes: [], homeDir: options.homeDir ?? os.homedir() });
}

async function fromPath(ref: string, options: MediaSourceOptions, asker: MediaAsker): Promise<ResolvedMedia> {
  if (!path.isAbsolute(ref)) return refused(ref, 'give an absolute path or an https URL');
  let real: string;
  try {
    real = await realpath(ref);
  } catch {
    return refused(ref, 'no such file');
  }
  const why = await forbidden(real, options, asker);
  if (why !== null) return refused(ref, why);
  const info = await stat(real);
  if (!info.isFile()) return refused(ref, 'not a regular file');
  if (info.size === 0) return refused(ref, 'the file is empty');
  if (info.size > options.maxBytes) {
    return refused(ref, `the file is ${sizeText(info.size)}, over the limit of ${sizeText(options.maxBytes)}`);
  }
  const fileName = path.basename(real);
  const mimeType = mimeTypeOf(fileName);
  return { ok: true, path: real, fileName, mimeType, kind: mediaKindOf(mimeType, fileName), size: info.size };
}

async function fromUrl(ref: string, options: MediaSourceOptions): Promise<ResolvedMedia> {
  if (!/^https:\/\//i.test(ref)) return refused(ref, 'only https URLs are fetched');
  if (options.download === undefined) return refused(ref, 'URLs cannot be fetched here');
  const file = await options.download(ref);
  if (file.bytes.length === 0) return refused(ref, 'the download is empty');
  const last = path.basename(new URL(file.url).pathname);
  const named = /^\.*$/.test(last) ? '' : last;
  const byName = named === '' ? 'application/octet-stream' : mimeTypeOf(named);
  const mimeType = byName !== 'application/octet-stream' ? byName : file.contentType || byName;
  const ext = path.extname(named) || extensionOf(mimeType);
  const digest = createHash('sha256').update(file.bytes).digest('hex').slice(0, 16);
  const fileName = named === '' ? `file${ext}` : named;
  // a folder per content, so the file keeps its own name (the outbox row records only the path)
  const folder = path.join(options.downloadDir, digest);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const target = path.join(folder, fileName);
  await writeFile(target, file.bytes, { mode: 0o600 });
  return { ok: true, path: target, fileName, mimeType, kind: mediaKindOf(mimeType, fileName), size: file.bytes.length };
}
