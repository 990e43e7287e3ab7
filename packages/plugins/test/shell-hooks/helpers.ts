import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@hermes/protocol';

/** A fresh directory under the OS temp dir. */
export function tempDir(prefix = 'hermes-shell-hooks-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes an executable script (`#!/bin/sh` unless the body has its own shebang) and returns its path. */
export function writeScript(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body.startsWith('#!') ? body : `#!/bin/sh\n${body}`);
  chmodSync(path, 0o755);
  return path;
}

export interface RecordingLogger extends Logger {
  lines: { obj: unknown; msg: string }[];
  text(): string;
}

/** A logger that keeps every line (all levels) for assertions. */
export function recordingLogger(): RecordingLogger {
  const lines: { obj: unknown; msg: string }[] = [];
  const log = (obj: unknown, msg?: string) => {
    lines.push({ obj, msg: typeof obj === 'string' ? obj : (msg ?? '') });
  };
  const logger: RecordingLogger = {
    trace: log,
    debug: log,
    info: log,
    warn: log,
    error: log,
    fatal: log,
    child: () => logger,
    lines,
    text: () => lines.map((l) => l.msg).join('\n'),
  };
  return logger;
}
