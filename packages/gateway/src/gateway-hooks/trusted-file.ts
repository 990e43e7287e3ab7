/**
 * `hermes.trustedFile(file)` for gateway hooks, on either thread: reads HERMES_HOME/<file> once,
 * hashes the bytes it read and hands them out only when that hash is the approved one. Checking
 * and reading are one read, so a file swapped after the check is never what runs.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrustedFile } from '@hermes/protocol';

/** Approved sha256 per file name of HERMES_HOME (e.g. `{ 'BOOT.md': '…' }`), read from trust.json at start. */
export type TrustedHashes = Readonly<Record<string, string>>;

/** Only plain names of HERMES_HOME: no folders, no `..`. */
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export async function readTrustedFile(home: string, trusted: TrustedHashes, file: string): Promise<TrustedFile> {
  if (!PLAIN.test(file)) throw new Error(`trustedFile takes a file name of HERMES_HOME, not ${JSON.stringify(file)}`);
  let bytes: Buffer;
  try {
    bytes = await readFile(join(home, file));
  } catch {
    return { state: 'missing' };
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const approved = Object.hasOwn(trusted, file) ? trusted[file] : undefined;
  if (approved === undefined) return { state: 'new', sha256 };
  if (approved !== sha256) return { state: 'changed', sha256 };
  return { state: 'approved', content: bytes.toString('utf8') };
}
