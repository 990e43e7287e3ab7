// The browser tool end to end through `hermes gateway run` on Telegram (fakes): agent.toolsets names
// `browser`, the fake model opens a page served on 127.0.0.1 (allowed by
// security.allow_private_urls), reads it and takes a screenshot; the page's text reaches the model
// in the tool result, the screenshot as a PNG image part of the next request, the user gets the
// answer, and the gateway stops with its browser closed. Without `browser` in
// agent.toolsets (`*` alone) the tool is not offered; `hermes tools enable browser` names it.
// Skipped, saying why, without Chromium.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium } from '../browser/chromium.js';
import { imagePartsOf } from '../fakes/openai-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const chromium = ensureChromium();
const skip = 'skip' in chromium ? chromium.skip : null;
if (skip) console.warn(`browser e2e skipped: ${skip}`);

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();
let server: Server;
let page = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<title>Shop</title><h1>Opening hours</h1><p>Monday to Friday, 9 to 17</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hours`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function env(home: string) {
  return { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
}

const toolNames = (i: number) =>
  ((openai.server.requests[i]?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe.skipIf(skip !== null)('the browser tool through gateway run on Telegram', () => {
  it('navigate, read and screenshot: the text and the image reach the model', async () => {
    if ('skip' in chromium) return;
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'gateway:',
        '  batch_ms: 0',
        'agent:',
        '  toolsets: ["*", browser]',
        'security:',
        '  allow_private_urls: true',
        'tools:',
        '  browser:',
        `    executable: ${JSON.stringify(chromium.path)}`,
        '',
      ].join('\n'),
    );
    const plan = [
      { name: 'browser', arguments: { action: 'navigate', url: page } },
      { name: 'browser', arguments: { action: 'read' } },
      { name: 'browser', arguments: { action: 'screenshot' } },
    ];
    openai.server.respond((req) => {
      const messages = (req.body as { messages: ChatMessage[] }).messages;
      const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
      const next = plan[results.length];
      return next ? { toolCalls: [next] } : { text: results.join('\n') };
    });
    const tg = telegram.server;
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' }),
    );
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: 'what are the opening hours?' });
      await waitFor(() => tg.sent.length > 0, { what: 'the answer', timeoutMs: 60_000 });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    expect(tg.sent[0]?.text).toContain('Monday to Friday, 9 to 17');
    expect(toolNames(0)).toContain('browser');
    const last = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages;
    const [opened, read, shot] = last
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(String(m.content)) as Record<string, unknown>);
    expect(opened).toMatchObject({ success: true, url: page, title: 'Shop', status: 200 });
    expect(read).toMatchObject({ success: true, title: 'Shop' });
    expect(read?.text).toBe('Opening hours\n\nMonday to Friday, 9 to 17');
    expect(shot).toMatchObject({ success: true, shown: true });
    expect(String(shot?.path)).toMatch(
      new RegExp(`^${home}/cache/media/[^/]+/screenshots/screenshot-[0-9a-f]{16}\\.png$`),
    );
    // the request after the screenshot carries it
    const images = imagePartsOf(openai.server.requests[3]);
    expect(images).toHaveLength(1);
    expect(images[0]?.mimeType).toBe('image/png');
    expect(images[0]?.data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(imagePartsOf(openai.server.requests[2])).toEqual([]);
  });
});

describe('the browser tool is opt-in', () => {
  it('`*` alone does not offer it; hermes tools enable names it beside `*`', async () => {
    const home = tempHome();
    openai.server.script({ text: 'ok' });
    const r = await runHermes(['-z', 'hi'], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(toolNames(0)).not.toContain('browser');
    expect(toolNames(0)).toContain('web_extract');
    const enabled = await runHermes(['tools', 'enable', 'browser'], { env: env(home) });
    expect(enabled.stdout).toBe('agent.toolsets = ["*","browser"]\n');
    // disabling another toolset lists the others, and keeps browser
    const disabled = await runHermes(['tools', 'disable', 'web'], { env: env(home) });
    expect(disabled.stdout).toMatch(/^agent\.toolsets = \[.*"file".*"browser".*\]\n$/);
    expect(disabled.stdout).not.toMatch(/"web"|"\*"/);
  });
});
