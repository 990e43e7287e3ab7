// Headless Chromium for the browser tests: Debian's `chromium` at /usr/bin/chromium, installed with
// apt-get when missing and this is root; otherwise the tests skip and say why.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The flags known to work on this machine's closed network (no background connections, no sandbox as root). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** apt-get, waiting up to 5 minutes for the dpkg lock (two test files may ask at once) */
function apt(args: readonly string[]): boolean {
  const r = spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

/** The Chromium binary, installed when missing and possible; a reason when there is none. */
export function ensureChromium(): { path: string } | { skip: string } {
  if (existsSync(CHROMIUM)) return { path: CHROMIUM };
  if (process.getuid?.() !== 0)
    return { skip: `${CHROMIUM} is missing and this is not root (apt-get install chromium)` };
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return { skip: `${CHROMIUM} is missing and apt-get is not available` };
  }
  if (!apt(['install', '-y', 'chromium']) && !(apt(['update', '-qq']) && apt(['install', '-y', 'chromium']))) {
    return { skip: 'apt-get install -y chromium failed' };
  }
  return existsSync(CHROMIUM) ? { path: CHROMIUM } : { skip: `apt-get installed chromium but ${CHROMIUM} is missing` };
}

/**
 * Launches headless Chromium. Playwright gives every launch a new, empty --user-data-dir of its own
 * (it refuses one in `args`) and removes it on close.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: FLAGS });
}
