/**
 * Which Chromium the `browser` tool drives: `tools.browser.executable` when set, else the first of
 * CHROMIUM_NAMES found on PATH. Not found: an error naming what to install.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Looked up on PATH, in this order, when tools.browser.executable is not set. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

export type ChromiumLookup = { ok: true; path: string } | { ok: false; error: string };

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium executable: `configured` (tools.browser.executable) if given, else the first of CHROMIUM_NAMES on `envPath`. */
export function findChromium(configured: string | undefined, envPath: string | undefined): ChromiumLookup {
  if (configured !== undefined) {
    return isExecutableFile(configured)
      ? { ok: true, path: configured }
      : { ok: false, error: `tools.browser.executable ${configured} is not an executable file` };
  }
  const dirs = (envPath ?? '').split(path.delimiter).filter((d) => d !== '');
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) return { ok: true, path: candidate };
    }
  }
  return {
    ok: false,
    error:
      `no Chromium found: none of ${CHROMIUM_NAMES.join(', ')} is on PATH. Install one ` +
      '(Debian/Ubuntu: apt-get install chromium) or set tools.browser.executable in config.yaml',
  };
}
