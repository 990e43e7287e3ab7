/**
 * Does a plugin or hook file parse? Checked without running any of it (jiti's transform, then a
 * compile), so listings can show a handler that would not load before it is ever allowed to run.
 */
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';

const JITI_ERROR = /exports\.__JITI_ERROR__ = (\{.*\})/;

/** null when `file` parses; otherwise `SyntaxError at LINE:COL: message`. Never executes the file. */
export async function moduleSyntaxError(file: string): Promise<string | null> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const { createJiti } = await import('jiti');
  const code = createJiti(file).transform({ source, filename: file, ts: /\.[mc]?tsx?$/.test(file) });
  const reported = JITI_ERROR.exec(code)?.[1];
  if (reported) {
    try {
      const e = JSON.parse(reported) as { line?: number; column?: number; message?: string };
      return `SyntaxError at ${e.line ?? '?'}:${e.column ?? '?'}: ${(e.message ?? 'cannot parse').trim()}`;
    } catch {
      return 'SyntaxError: cannot parse';
    }
  }
  try {
    // compiled as the CommonJS function body it becomes, never run
    new Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: file });
    return null;
  } catch (err) {
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
}
