// The console behind a login (API_SERVER_KEY set), in headless Chromium against a real `hermes
// gateway run`: the login form, then the Sessions, Plugins & hooks, Trust and Logs pages, then log out.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptToolTurn } from '../fakes/openai-reply.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { ensureChromium, launchChromium } from './chromium.js';
import { openPage, shot } from './pages.js';

const KEY = 'sk-browser-test-key-0123456789';
const openai = useFakeOpenAI();
const found = ensureChromium();
if ('skip' in found) console.warn(`browser tests skipped: ${found.skip}`);

let home: string;
let gw: RunningGateway;
let browser: Browser;
const problems: string[] = [];

describe.skipIf('skip' in found)('the console behind a login, in Chromium', () => {
  beforeAll(async () => {
    if (!('path' in found)) return;
    home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [calculator]\n');
    writeFileSync(join(home, 'BOOT.md'), 'Say hello.\n');
    gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      API_SERVER_KEY: KEY,
    });
    browser = await launchChromium(found.path);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
    expect(problems).toEqual([]);
  });

  it('logs in with the key, shows a session with its tool call folded, disables a plugin, tails the log, logs out', async () => {
    // one API exchange with a tool call, kept as session api:browser-test
    openai.server.script(...scriptToolTurn('calculate', { expression: '6*7' }, 'It is 42.'));
    const api = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        'x-hermes-session': 'browser-test',
      },
      body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'what is 6*7?' }] }),
    });
    expect(api.status).toBe(200);

    const page: Page = await openPage(browser, gw.url, '/', problems);
    const token = page.getByLabel(/Token/);
    await token.fill('not-the-key');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(/401/).waitFor();
    await shot(page, 'login-refused');
    await token.fill(KEY);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('link', { name: /api:browser-test/ }).click();
    await page.getByText('It is 42.').waitFor();
    const call = page.locator('details.tool-call');
    expect(await call.locator('summary').textContent()).toContain('calculate');
    expect(await call.getAttribute('open')).toBeNull(); // folded
    await call.locator('summary').click();
    await call.getByText('6*7').first().waitFor();
    await shot(page, 'session');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stop asked').waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Session reset').waitFor();

    await page.getByRole('link', { name: 'Plugins & hooks' }).click();
    const calculator = page.getByRole('row', { name: /calculator/ });
    await calculator.getByRole('button', { name: 'Disable' }).click();
    await page.getByTestId('restart-needed').waitFor();
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toMatch(/disabled:[\s\S]*calculator/);

    // Trust: the BOOT.md written before start is pending; Approve records it in trust.json
    await page.getByRole('link', { name: 'Trust' }).click();
    const boot = page.getByRole('row', { name: /boot:BOOT\.md/ });
    await boot.getByText('pending (new)').waitFor();
    await boot.getByRole('button', { name: 'Approve' }).click();
    await boot.getByRole('button', { name: 'Revoke' }).waitFor();
    expect(JSON.parse(readFileSync(join(home, 'trust.json'), 'utf8')).approvals).toContainEqual(
      expect.objectContaining({ id: 'boot:BOOT.md', via: 'console' }),
    );

    await page.getByRole('link', { name: 'Logs' }).click();
    await page.getByRole('cell', { name: /console: token:\w{6} plugin\.disable calculator/ }).waitFor();
    await shot(page, 'logs');
    // the page asks for no favicon (a data: icon): nothing the browser does by itself is refused
    expect(await page.getByRole('cell', { name: /favicon/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const after = await page.evaluate("fetch('/console/api/overview').then((r) => r.status)");
    expect(after).toBe(401);
    await page.close();
  });

  it('web chat visitor: a stranger answered with a pairing code, approved on the Pairing page after a login, then answered', async () => {
    const chat = await openPage(browser, gw.url, '/chat', problems);
    await chat.getByText('connected', { exact: true }).waitFor();
    const me = (await chat.evaluate("fetch('/chat/api/session').then((r) => r.json())")) as {
      userId: string;
      operator: boolean;
    };
    expect(me.operator).toBe(false);
    await chat.getByLabel('Message').fill('hello, anyone?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.locator('[data-from="bot"]', { hasText: /hermes pairing approve web [A-Z0-9]{8}/ }).waitFor();
    expect(openai.server.requests).toHaveLength(0);

    const admin = await openPage(browser, gw.url, '/#/pairing', problems);
    await admin.getByLabel(/Token/).fill(KEY);
    await admin.getByRole('button', { name: 'Log in' }).click();
    const row = admin.getByTestId(`pending-web-${me.userId}`);
    await row.getByRole('button', { name: 'Approve' }).click();
    await admin.getByTestId(`approved-web-${me.userId}`).waitFor();
    await admin.close();

    openai.server.script({ text: 'Now I know you.' });
    await chat.getByLabel('Message').fill('and now?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.locator('[data-from="bot"]', { hasText: 'Now I know you.' }).waitFor();
    await chat.close();
  });
});
