// The console and the web chat in headless Chromium (playwright-core) against a real `hermes gateway
// run` on loopback, with the fake Telegram Bot API and the fake OpenAI server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_PNG, imagePartsOf } from '../fakes/openai-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { ensureChromium, launchChromium } from './chromium.js';
import { openPage, shot } from './pages.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken5678';
const STRANGER = 777;
/** streamed answers on every platform, edited every 200 ms */
const CONFIG = 'display:\n  streaming: true\n  stream_interval_ms: 200\n';

const openai = useFakeOpenAI();
const found = ensureChromium();
if ('skip' in found) console.warn(`browser tests skipped: ${found.skip}`);

let tg: FakeTelegram;
let gw: RunningGateway;
let browser: Browser;
/** an Overview kept open through every test: its charts gather the whole run's metrics */
let dashboard: Page | undefined;
/** what the pages did that the tests check for: CSP violations, POSTs without the CSRF header */
const problems: string[] = [];

let home: string;
/**
 * A page logged in as the operator: its context first visits a one-time link of `hermes console url`
 * (with the terminal tool on, a loopback browser is not the operator without a login).
 */
async function open(path: string): Promise<Page> {
  const link = await runHermes(['console', 'url'], { env: { HERMES_HOME: home } });
  if (link.code !== 0) throw new Error(`hermes console url: ${link.stderr}`);
  const url = new URL(link.stdout.trim());
  return openPage(browser, gw.url, path, problems, `${url.pathname}${url.search}`);
}

describe.skipIf('skip' in found)('the console and the web chat in Chromium', () => {
  beforeAll(async () => {
    if (!('path' in found)) return;
    tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
    home = tempHome();
    writeFileSync(join(home, 'config.yaml'), CONFIG);
    gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
    });
    browser = await launchChromium(found.path);
    dashboard = await open('/#/overview');
  }, 60_000);

  afterAll(async () => {
    if (dashboard) await shot(dashboard, 'overview-whole-run');
    await browser?.close();
    await gw?.stop();
    await tg?.close();
    expect(problems).toEqual([]);
  });

  it('a Telegram stranger asks to pair: the request shows on Pairing, Approve lets them in, they get answered', async () => {
    tg.pushMessage({ chatId: STRANGER, userId: STRANGER, firstName: 'Stranger', text: 'hello?' });
    await waitFor(() => tg.sent.some((m) => /pairing code/.test(m.text)), { what: 'the pairing code message' });

    const page = await open('/#/pairing');
    const row = page.getByTestId(`pending-telegram-${STRANGER}`);
    await row.waitFor();
    await shot(page, 'pairing-pending');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId(`approved-telegram-${STRANGER}`).waitFor();
    expect(await page.getByTestId(`pending-telegram-${STRANGER}`).count()).toBe(0);

    openai.server.script({ text: 'Welcome aboard, you are paired.' });
    tg.pushMessage({ chatId: STRANGER, userId: STRANGER, firstName: 'Stranger', text: 'now?' });
    await waitFor(
      () => [...tg.sent].some((m) => tg.textOf(STRANGER, m.message_id) === 'Welcome aboard, you are paired.'),
      { what: 'the answer to the paired user' },
    );
    await shot(page, 'pairing-approved');
    await page.close();
  });

  it('Overview shows Telegram go to error and come back to connected, live, without a reload', async () => {
    const page = await open('/#/overview');
    const state = page.getByTestId('platform-state-telegram');
    await state.filter({ hasText: /^connected$/ }).waitFor();
    await page.evaluate('window.notReloaded = true');
    // the Bot API refuses getUpdates once, with retry_after 3 s: the adapter waits in state error
    tg.failNext('getUpdates', { status: 429, retryAfter: 3 });
    await state.filter({ hasText: /^error$/ }).waitFor({ timeout: 8_000 });
    await shot(page, 'overview-error');
    await state.filter({ hasText: /^connected$/ }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    await page.getByTestId('chart-received').locator('polyline').waitFor({ state: 'attached', timeout: 8_000 });
    await shot(page, 'overview');
    await page.close();
  });

  it('web chat as the operator (logged in with a link): a typed message is answered, the answer streaming into one bubble; a picked file reaches the model', async () => {
    const page = await open('/chat');
    await page.getByText('connected', { exact: true }).waitFor();
    const me = (await page.evaluate(
      "fetch('/chat/api/session', { credentials: 'same-origin' }).then((r) => r.json())",
    )) as { userId: string; operator: boolean };
    // on loopback with no token the console asks no login: every browser is its operator
    expect(me).toMatchObject({ userId: expect.stringMatching(/^console:link:[0-9a-f]{6}$/), operator: true });
    const answer = 'Streaming into the browser, word by word, until the answer is whole.';
    openai.server.script({ text: answer, chunkDelayMs: 120 });
    // every text a bot bubble showed, to see the partial ones
    await page.evaluate(`(() => {
      const seen = (window.seen = []);
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-from="bot"]')) seen.push(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    const before = await page.locator('[data-from="bot"]').count();
    await page.getByLabel('Message').fill('tell me something');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-from="me"]', { hasText: 'tell me something' }).waitFor();
    await page.locator('[data-from="bot"]', { hasText: answer }).waitFor({ timeout: 15_000 });
    const seen = (await page.evaluate('window.seen')) as string[];
    const partial = (t: string) => t.length > 0 && t !== answer && answer.startsWith(t.replace(/[\s…▍]+$/, ''));
    expect(seen.some(partial)).toBe(true);
    expect(await page.locator('[data-from="bot"]').count()).toBe(before + 1);
    await shot(page, 'chat');

    // a file from the picker goes with the text (multipart) and reaches the model as an image
    openai.server.script({ text: 'A very small picture.' });
    await page.getByLabel('Attach a file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: FAKE_PNG });
    await page.getByLabel('Message').fill('what is this?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-from="me"]', { hasText: 'what is this? [dot.png]' }).waitFor();
    await page.locator('[data-from="bot"]', { hasText: 'A very small picture.' }).waitFor();
    const images = imagePartsOf(openai.server.requests.at(-1));
    expect(images.map((i) => i.data.equals(FAKE_PNG))).toEqual([true]);
    await page.close();
  });
});
