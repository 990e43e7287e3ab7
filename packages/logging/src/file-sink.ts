/**
 * The log file: appended synchronously, so a crash never loses the lines logged before it; rotated
 * by size (`gateway.log` -> `gateway.log.1` -> ... -> `.KEEP`, the oldest dropped).
 */
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import pino from 'pino';
import type { LineSink } from './redacting-destination.js';

export interface FileSink extends LineSink {
  path: string;
  /** Closes the file; resolves when it is closed. */
  close(): Promise<void>;
}

/** Log files may quote user messages: owner-only. */
const LOG_FILE_MODE = 0o600;
/** Directories created for logs (HERMES_HOME itself when it is new): owner-only. */
const LOG_DIR_MODE = 0o700;

/** Creates `dir` and missing parents 0700 (chmod: the umask cannot widen it); existing ones are left alone. */
function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: LOG_DIR_MODE });
  if (first === undefined) return;
  let at = first;
  chmodSync(at, LOG_DIR_MODE);
  for (const part of relative(first, dir).split(sep).filter(Boolean)) {
    at = `${at}${sep}${part}`;
    chmodSync(at, LOG_DIR_MODE);
  }
}

/** The log file 0600 whatever the umask, and an older file created wider tightened. */
function tighten(path: string): void {
  try {
    chmodSync(path, LOG_FILE_MODE);
  } catch {
    // a file we do not own stays as it is; writing to it reports its own error
  }
}

/** A log file past this size is rotated. */
export const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** Rotated files kept (`.1` newest to `.KEEP` oldest). */
export const LOG_KEEP_FILES = 3;

/** Shifts `path.1..path.keep-1` up by one and moves `path` to `path.1`. */
function rotateFiles(path: string, keep: number): void {
  rmSync(`${path}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
  renameSync(path, `${path}.1`);
}

/** Opens `<dir>/<fileName>` for appending (creating `dir`). A write error disables the file with a notice on stderr. */
export function openFileSink(
  dir: string,
  fileName: string,
  rotation: { maxBytes?: number; keep?: number } = {},
): FileSink {
  const path = join(dir, fileName);
  const maxBytes = rotation.maxBytes ?? LOG_ROTATE_BYTES;
  const keep = rotation.keep ?? LOG_KEEP_FILES;
  makePrivateDir(dir);
  const stream = pino.destination({ dest: path, sync: true, append: true, mode: LOG_FILE_MODE });
  tighten(path);
  let size = existsSync(path) ? statSync(path).size : 0;
  let failed = false;
  stream.on('error', (error: unknown) => {
    if (failed) return;
    failed = true;
    process.stderr.write(`hermes: cannot write log file ${path}: ${String(error)}; file logging stopped\n`);
  });
  let closing: Promise<void> | null = null;
  return {
    path,
    write(line) {
      if (failed || closing !== null) return;
      stream.write(line);
      size += Buffer.byteLength(line);
      if (size < maxBytes) return;
      try {
        rotateFiles(path, keep);
        stream.reopen();
        tighten(path);
        size = 0;
      } catch (error) {
        process.stderr.write(`hermes: cannot rotate log file ${path}: ${String(error)}\n`);
        size = 0; // try again after another maxBytes
      }
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (failed) return resolve();
        stream.once('close', () => resolve());
        stream.end();
      });
      return closing;
    },
  };
}
