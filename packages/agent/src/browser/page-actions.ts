/**
 * What the `browser` tool does on a session's page: open a URL, read the page as text (with the
 * controls one can fill or click), click, fill a field, take a screenshot. Each returns the plain
 * data the tool hands the model; failures throw with a message naming what was wrong.
 */
import type { Page } from 'playwright-core';
import { type PageScriptResult, parsePageScript, readPageScript } from './page-script.js';
import { REFUSED_HEADER } from './vetting-proxy.js';

/** After the DOM is ready, the `load` event is waited for this long at most (a page that never finishes loading still reads). */
const LOAD_GRACE_MS = 5_000;
/** Controls listed by `read`. */
const MAX_CONTROLS = 40;
/** A control's text is cut here. */
const CONTROL_TEXT_MAX = 80;

export interface PageState {
  url: string;
  title: string;
}

export interface Opened extends PageState {
  status: number | null;
}

/** A field, button or link the model can fill or click (a selector, or its text). */
export type Control = PageScriptResult['controls'][number];

export interface PageText extends PageState {
  text: string;
  /** characters of text not shown (over the cap) */
  cut: number;
  controls: Control[];
}

async function state(page: Page): Promise<PageState> {
  return { url: page.url(), title: await page.title().catch(() => '') };
}

/** Waits for `load` a little after the DOM is ready, so most pages have their content. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
}

/** Why Chromium's navigation error happened, in words the model can act on. */
export function describeNavigationError(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
  if (/ERR_TUNNEL_CONNECTION_FAILED|ERR_BLOCKED_BY_CLIENT/.test(message)) {
    return `${message} (the browser reaches no private, loopback or link-local address, redirects included; see security.allow_private_urls)`;
  }
  return message;
}

/** Opens `url` in the page: the DOM ready, then the load event for a few seconds. */
export async function openUrl(page: Page, url: string): Promise<Opened> {
  const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
  const refused = response?.headers()[REFUSED_HEADER];
  if (refused !== undefined) throw new Error(`refused: ${decodeURIComponent(refused)}`);
  await settle(page);
  return { ...(await state(page)), status: response?.status() ?? null };
}

/** The page's visible text (at most `maxChars`), and the controls on it. */
export async function readPage(page: Page, maxChars: number): Promise<PageText> {
  const read = parsePageScript(await page.evaluate(readPageScript(MAX_CONTROLS, CONTROL_TEXT_MAX)));
  const text = read.text.replace(/\n{3,}/g, '\n\n').trim();
  const over = Math.max(0, text.length - maxChars);
  const shown = over > 0 ? `${text.slice(0, maxChars)}\n\n[... ${over} more characters not shown ...]` : text;
  return { ...(await state(page)), text: shown, cut: over, controls: read.controls };
}

/** Clicks the first element matching `selector`, or else the first whose visible text contains `text`. */
export async function clickOn(page: Page, target: { selector?: string; text?: string }): Promise<PageState> {
  const locator =
    target.selector !== undefined ? page.locator(target.selector) : page.getByText(target.text ?? '', { exact: false });
  await locator.first().click();
  await settle(page);
  return state(page);
}

/** Fills the first field matching `selector` with `value` (what was there is replaced). */
export async function fillIn(page: Page, selector: string, value: string): Promise<PageState> {
  await page.locator(selector).first().fill(value);
  return state(page);
}

/** A PNG of the visible part of the page. */
export async function screenshotOf(page: Page): Promise<{ png: Buffer } & PageState> {
  const png = await page.screenshot({ type: 'png' });
  return { png, ...(await state(page)) };
}
