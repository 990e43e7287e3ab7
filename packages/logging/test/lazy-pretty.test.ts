import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** Runs a fresh Node process that creates a logger, and reports whether pino-pretty got loaded. */
function prettyLoaded(consoleMode: 'json' | 'pretty'): boolean {
  const script = `
    import { createRequire } from 'node:module';
    const { createLogger } = await import(${JSON.stringify(entry)});
    const handle = createLogger({ level: 'info', secrets: [], console: '${consoleMode}', consoleStream: { write() {} } });
    handle.logger.info('x');
    await handle.close();
    const cache = createRequire(import.meta.url).cache;
    console.log(Object.keys(cache).some((file) => file.includes('pino-pretty')));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return out.trim() === 'true';
}

describe('pino-pretty loading', () => {
  it('is imported only when the pretty console is requested', () => {
    expect(prettyLoaded('json')).toBe(false);
    expect(prettyLoaded('pretty')).toBe(true);
  });
});
