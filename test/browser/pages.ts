// Pages of the browser tests: each in its own browser context, watched for what must never happen
// (a Content-Security-Policy violation, an uncaught error, a POST without the CSRF header).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

const SHOTS = fileURLToPath(new URL('../../test-results/browser/', import.meta.url));

/** POSTs that have no session yet, so no CSRF token to send */
const NO_SESSION_POSTS = new Set(['/console/api/login']);

/**
 * Opens `base + path` in a new browser context (its own cookies); `via`: a path visited first in the
 * same context. Problems seen on the page are pushed onto `problems`.
 */
export async function openPage(
  browser: Browser,
  base: string,
  path: string,
  problems: string[],
  via?: string,
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`${path}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${path}: ${e.message}`));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() === 'POST' && !NO_SESSION_POSTS.has(url.pathname) && !r.headers()['x-hermes-csrf']) {
      problems.push(`POST ${url.pathname} without x-hermes-csrf`);
    }
  });
  if (via !== undefined) {
    await page.goto(`${base}${via}`);
    await page.waitForLoadState('networkidle');
  }
  await page.goto(`${base}${path}`);
  return page;
}

/** A screenshot under test-results/browser/ (git-ignored). */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}
