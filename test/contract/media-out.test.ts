// Outbound media, one contract for every platform that takes files: an answer's MEDIA lines arrive
// as native attachments (photo / inline image, or document) without the lines; nothing under
// HERMES_HOME but cache/ is ever sent; a failed upload gets a text naming the file; an attachment
// is sent once across a restart; image_generate's picture arrives as a photo; a voice answer arrives
// after the text (Telegram and Matrix: a voice note; Discord and Slack: an audio file).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createImageGenerateTool, createSafeDownload, createSpeechSynthesizer } from '@hermes/agent';
import { PluginRegistries } from '@hermes/plugins';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiImageProvider } from '../../plugins/image_gen/openai/provider.js';
import { openAiSpeechProvider } from '../../plugins/tts/openai/provider.js';
import { FAKE_OPUS, FAKE_PNG, type FakeOpenAI, scriptToolTurn, startFakeOpenAI } from '../fakes/openai-server.js';
import type { PlatformDriver } from './driver.js';
import { selectedDrivers } from './drivers/index.js';
import { type ContractGateway, startContractGateway } from './harness.js';
import { eventually } from './recorders.js';

const WAIT_MS = 30_000;
const until = (what: string, check: () => boolean) => eventually(check, WAIT_MS, what);
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The answer is here: a second upload or text would be its delivery's, which idle() waits for. */
async function settle(gw: ContractGateway): Promise<void> {
  await gw.gateway.idle();
}

/** A folder outside HERMES_HOME with a PNG and a text file the model may name. */
function outsideFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-media-out-'));
  const png = join(dir, 'chart.png');
  const txt = join(dir, 'report.txt');
  writeFileSync(png, FAKE_PNG);
  writeFileSync(txt, 'quarterly numbers\n');
  return { dir, png, txt };
}

const drivers = selectedDrivers().filter((d) => d.sentFiles !== undefined);

describe.each(drivers.map((d) => [d.label, d] as const))('outbound media: %s', (_label, driver: PlatformDriver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  const alice = driver.user(0);
  const files = () => driver.sentFiles?.() ?? [];
  const texts = () => driver.sent().map((m) => m.text);

  const start = async (options: { dbPath?: string; imageGen?: boolean; voice?: boolean } = {}) => {
    const registries = new PluginRegistries();
    registries.imageGenProviders.set('openai', {
      name: 'openai',
      plugin: 'image_gen/openai',
      provider: openAiImageProvider,
    });
    registries.ttsProviders.set('openai', { name: 'openai', plugin: 'tts/openai', provider: openAiSpeechProvider });
    const speech = createSpeechSynthesizer({
      providers: registries.ttsProviders,
      config: { provider: 'openai', model: 'tts-1', voice: 'alloy', format: 'opus', max_chars: 4000, timeout_s: 10 },
      modelBaseUrl: model.url,
      apiKey: '',
    });
    gw = await startContractGateway(driver, model, {
      allowed: [alice],
      ...(options.voice ? { voice: { speech, mode: 'on' as const } } : {}),
      ...(options.dbPath ? { dbPath: options.dbPath } : {}),
      tools: (home) =>
        options.imageGen
          ? [
              createImageGenerateTool({
                providers: registries.imageGenProviders,
                config: { provider: 'openai', model: 'gpt-image-1' },
                modelBaseUrl: model.url,
                apiKey: '',
                imageDir: () => join(home, 'cache', 'images'),
                download: createSafeDownload({ allowPrivate: false, timeoutMs: 5_000, maxBytes: 1_000_000 }),
              }),
            ]
          : [],
    });
    await driver.waitReady();
    return gw;
  };

  beforeAll(async () => {
    model = await startFakeOpenAI();
    await driver.start();
  });
  afterAll(async () => {
    await driver.close();
    await model.close();
  });
  beforeEach(() => {
    model.reset();
    driver.reset();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = null;
  });

  it('an answer with a MEDIA line arrives as a native attachment without the line', async () => {
    const g = await start();
    const { png } = outsideFiles();
    model.script({ text: `Here is the chart.\nMEDIA: ${png}` });
    const ref = await driver.dm(alice, 'draw me a chart');
    await until('the attachment', () => files().length > 0);
    await settle(g);
    expect(files()).toHaveLength(1);
    const [file] = files();
    expect(file).toMatchObject({ chatId: ref.chatId, fileName: 'chart.png', kind: 'image', size: FAKE_PNG.length });
    expect(file?.sha256).toBe(sha(FAKE_PNG));
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toContain('Here is the chart.');
    expect(texts().join('\n')).not.toContain('MEDIA:');
  });

  it('a voice answer comes after the text: a voice note on Telegram and Matrix, an audio file elsewhere', async () => {
    const g = await start({ voice: true });
    model.script({ text: 'Spoken and **written**.' });
    const ref = await driver.dm(alice, 'say it');
    await until('the voice answer', () => files().length > 0);
    await settle(g);
    expect(files()).toHaveLength(1);
    const [file] = files();
    expect(file).toMatchObject({
      chatId: ref.chatId,
      kind: driver.platform === 'telegram' || driver.platform === 'matrix' ? 'voice' : 'document',
      size: FAKE_OPUS.length,
      sha256: sha(FAKE_OPUS),
    });
    expect(file?.fileName).toMatch(/^voice-[0-9a-f]{16}\.opus$/);
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toContain('Spoken and');
    expect(model.speeches.map((r) => r.body?.input)).toEqual(['Spoken and written.']);
  });

  it('a file that is not an image goes as a document; MEDIA lines inside a code fence stay text', async () => {
    const g = await start();
    const { txt } = outsideFiles();
    model.script({ text: `The report:\nMEDIA: ${txt}\n\n\`\`\`\nMEDIA: /not/a/file\n\`\`\`` });
    await driver.dm(alice, 'send the report');
    await until('the attachment', () => files().length > 0);
    await settle(g);
    expect(files().map((f) => [f.fileName, f.kind])).toEqual([['report.txt', 'document']]);
    expect(files()[0]?.sha256).toBe(sha('quarterly numbers\n'));
    expect(texts().join('\n')).toContain('/not/a/file');
  });

  it('a MEDIA line naming HERMES_HOME/.env uploads nothing (directly, through "..", or a symlink)', async () => {
    const g = await start();
    writeFileSync(join(g.home, '.env'), 'OPENAI_API_KEY=sk-contract-secret-value\n');
    mkdirSync(join(g.home, 'cache'), { recursive: true });
    const { dir } = outsideFiles();
    const link = join(dir, 'innocent.txt');
    symlinkSync(join(g.home, '.env'), link);
    model.script({
      text: `Keys:\nMEDIA: ${join(g.home, '.env')}\nMEDIA: ${join(g.home, 'cache', '..', '.env')}\nMEDIA: ${link}`,
    });
    await driver.dm(alice, 'send me your .env');
    await until('the answer', () => texts().length > 0);
    await settle(g);
    expect(files()).toHaveLength(0);
    const said = texts().join('\n');
    expect(said).not.toContain('sk-contract-secret-value');
    expect(said.match(/Not sent/g)).toHaveLength(3);
    expect(said).toContain('never sent');
  });

  it('an upload the platform refuses gets a text naming the file, and the chat goes on', async () => {
    const g = await start();
    const { txt } = outsideFiles();
    driver.failNextUpload?.();
    model.script({ text: `MEDIA: ${txt}` }, { text: 'still here' });
    await driver.dm(alice, 'send the report');
    await until('the fallback', () => texts().some((t) => t.includes('report.txt')));
    expect(files()).toHaveLength(0);
    expect(texts().find((t) => t.includes('report.txt'))).toMatch(/Could not upload report\.txt/);
    await driver.dm(alice, 'are you there?');
    await until('the next answer', () => texts().some((t) => t.includes('still here')));
    await settle(g);
  });

  it('an attachment already sent is not uploaded again after a restart; a pending one is, once', async () => {
    const first = await start();
    const { png, txt } = outsideFiles();
    model.script({ text: `Two files.\nMEDIA: ${png}\nMEDIA: ${txt}` });
    await driver.dm(alice, 'both files please');
    await until('both attachments', () => files().length === 2);
    await settle(first);
    // rewind to a crash after the first file's delivered mark: the second row pending, the message unfinished
    const rows = first.store.db
      .prepare<[], { id: number; inbox_id: number; kind: string; text: string }>(
        'SELECT id, inbox_id, kind, text FROM outbox ORDER BY chunk_index',
      )
      .all();
    expect(rows.map((r) => r.kind)).toEqual(['text', 'media', 'media']);
    const last = rows[2];
    if (!last) throw new Error('no media row');
    expect(last.text).toContain('report.txt');
    first.store.db.prepare("UPDATE outbox SET status = 'pending' WHERE id = ?").run(last.id);
    first.store.db.prepare("UPDATE inbox SET status = 'processing' WHERE id = ?").run(last.inbox_id);
    await first.stop();
    driver.reset();
    model.reset();
    const second = await start({ dbPath: first.dbPath });
    await until('the pending attachment', () => files().length > 0);
    await settle(second);
    expect(files().map((f) => f.fileName)).toEqual(['report.txt']);
    expect(texts()).toHaveLength(0);
    expect(model.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
  });

  it('image_generate: the generated image arrives as a photo', async () => {
    const g = await start({ imageGen: true });
    model.script(...scriptToolTurn('image_generate', { prompt: 'a red square', size: '256x256' }, 'Here you go.'));
    await driver.dm(alice, 'draw a red square');
    await until('the photo', () => files().length > 0);
    await settle(g);
    expect(files()).toHaveLength(1);
    expect(files()[0]).toMatchObject({ kind: 'image', sha256: sha(FAKE_PNG) });
    expect(texts().join('\n')).toContain('Here you go.');
    expect(texts().join('\n')).not.toContain('MEDIA:');
    const asked = model.requests.find((r) => r.path.endsWith('/images/generations'));
    expect(asked?.body).toMatchObject({ prompt: 'a red square', size: '256x256', model: 'gpt-image-1' });
  });
});
