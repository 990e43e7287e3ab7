/**
 * What a CLI command (chat, -z) shows of its log on a terminal: one short line per warning or
 * error, not pino-pretty's multi-line block with a stack; the full entry is in the log file.
 * Plugin load failures are skipped here: the command prints its own line for each.
 */
import type { PluginRecord } from '@hermes/plugins';

/** Characters of a log message shown on the console. */
const MAX_CHARS = 200;
const LEVEL_WORD: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

export interface LineWriter {
  write(chunk: string): unknown;
}

/** The first line of a message, clipped. */
export function firstLine(text: string, max = MAX_CHARS): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A console stream for createLogger({console: 'json'}): each JSON log line becomes `hermes: warning: message`. */
export function oneLineConsole(out: LineWriter): LineWriter {
  return {
    write(chunk: string) {
      for (const raw of chunk.split('\n')) {
        if (raw.trim() === '') continue;
        let entry: { level?: unknown; msg?: unknown; plugin?: unknown };
        try {
          entry = JSON.parse(raw) as typeof entry;
        } catch {
          continue;
        }
        const msg = typeof entry.msg === 'string' ? entry.msg : '';
        if (typeof entry.plugin === 'string' && / failed( to load)?: /.test(msg)) continue; // printed by pluginFailureLines
        const level = typeof entry.level === 'number' ? entry.level : 40;
        out.write(`hermes: ${LEVEL_WORD[level] ?? 'warning'}: ${firstLine(msg)}\n`);
      }
      return true;
    },
  };
}

/** `plugin X failed to load: <first line of reason>`: the one way a broken plugin is reported. */
export function pluginFailureLine(record: Pick<PluginRecord, 'key' | 'error'>): string {
  return `plugin ${record.key} failed to load: ${firstLine(record.error ?? 'unknown error')}`;
}
