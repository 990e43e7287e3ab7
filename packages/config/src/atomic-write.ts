/** Crash-safe config writes: the shared atomic replacement of @hermes/protocol, in an owner-only folder. */
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '@hermes/protocol';
import { makePrivateDir } from './private-dir.js';

/** Replaces `path` with `text` atomically, creating parent directories (0700); keeps an existing file's mode. */
export function writeFileAtomic(path: string, text: string): void {
  makePrivateDir(dirname(path));
  writeFileAtomicSync(path, text);
}
