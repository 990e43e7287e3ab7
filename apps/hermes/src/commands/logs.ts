/**
 * `hermes logs [--follow] [--level LEVEL] [--lines N] [--file gateway|cli]`: the log, readable,
 * coloured on a terminal, filtered by level; `--follow` keeps reading and follows rotation (a new
 * file under the same name is read from its start).
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveHome } from '@hermes/config';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { formatLogLine, minLevel } from './log-line.js';

export interface LogsOptions {
  follow?: boolean;
  level?: string;
  lines?: string;
  file?: string;
}

const POLL_MS = 250;
const CHUNK_BYTES = 64 * 1024;

function readFrom(path: string, offset: number): { text: string; end: number } {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const chunks: Buffer[] = [];
    let at = offset;
    while (at < size) {
      const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, size - at));
      const n = readSync(fd, buffer, 0, buffer.length, at);
      if (n <= 0) break;
      chunks.push(buffer.subarray(0, n));
      at += n;
    }
    return { text: Buffer.concat(chunks).toString('utf8'), end: at };
  } finally {
    closeSync(fd);
  }
}

export async function logsCommand(opts: LogsOptions, options: GlobalOptions, signal?: AbortSignal): Promise<void> {
  let min: number;
  try {
    min = opts.level ? minLevel(opts.level) : 0;
  } catch (err) {
    throw new CliExit(EXIT.USAGE, err instanceof Error ? err.message : String(err));
  }
  const given = opts.lines ?? '200';
  if (!/^\d+$/.test(given.trim())) {
    throw new CliExit(EXIT.USAGE, `--lines: expected a whole number of lines (e.g. --lines 50), got "${given}"`);
  }
  const lines = Number(given);
  const { home } = resolveHome({ env: process.env, ...(options.profile ? { profile: options.profile } : {}) });
  const path = join(home, 'logs', `${opts.file ?? 'gateway'}.log`);
  const colour = process.stdout.isTTY === true;
  const shown = (raw: string) => {
    const line = formatLogLine(raw, colour);
    return line && line.level >= min ? line.text : null;
  };
  const emit = (raw: string) => {
    const text = shown(raw);
    if (text !== null) process.stdout.write(`${text}\n`);
  };
  let offset = 0;
  let inode = -1;
  let partial = '';
  if (existsSync(path)) {
    const { text, end } = readFrom(path, 0);
    const all = text.split('\n');
    partial = all.pop() ?? '';
    // filter first, then the last N of what is left (`--level warn --lines 5`: the last 5 warnings)
    const kept = all.map(shown).filter((t): t is string => t !== null);
    for (const text of lines === 0 ? [] : kept.slice(-lines)) process.stdout.write(`${text}\n`);
    offset = end;
    inode = statSync(path).ino;
  } else if (!opts.follow) {
    throw new CliExit(EXIT.ERROR, `no log yet at ${path}`);
  }
  if (!opts.follow) return;
  while (!signal?.aborted) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (!existsSync(path)) continue;
    const st = statSync(path);
    if (st.ino !== inode || st.size < offset) {
      // rotated (a new file) or truncated: read the new one from its start
      inode = st.ino;
      offset = 0;
      partial = '';
    }
    if (st.size === offset) continue;
    const { text, end } = readFrom(path, offset);
    offset = end;
    const chunk = (partial + text).split('\n');
    partial = chunk.pop() ?? '';
    for (const raw of chunk) emit(raw);
  }
}
