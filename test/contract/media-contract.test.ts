// Inbound media, one contract for every platform that takes files: photos reach the model as image
// parts with the photo's bytes, voice notes as "[voice] <transcript>", several files in one message
// (a Telegram album) as one turn, bad files get a reply naming what was wrong and the chat goes on,
// and a restart between the download and the answer loses nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, imagePartsOf, type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';
import type { ContractFile, PlatformDriver } from './driver.js';
import { selectedDrivers } from './drivers/index.js';
import { type ContractGateway, startContractGateway } from './harness.js';
import { eventually } from './recorders.js';
import { answers, settleWithMarker } from './settle.js';

const WAIT_MS = 30_000;
const until = (what: string, check: () => boolean): Promise<void> => eventually(check, WAIT_MS, what);
const chatRequests = (model: FakeOpenAI): RecordedRequest[] =>
  model.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** The last user message's text (its text part when it has parts). */
function lastUserText(request: RecordedRequest | undefined): string {
  const messages = (request?.body?.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === 'user').at(-1)?.content;
  if (typeof content === 'string') return content;
  const parts = (content ?? []) as { type: string; text?: string }[];
  return parts.find((p) => p.type === 'text')?.text ?? '';
}

const png = (seed: string): Buffer =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`png pixels ${seed}`)]);
const photo = (seed: string, name = `${seed}.png`): ContractFile => ({
  kind: 'photo',
  name,
  mimeType: 'image/png',
  data: png(seed),
});
const voice: ContractFile = {
  kind: 'voice',
  name: 'voice.ogg',
  mimeType: 'audio/ogg',
  data: Buffer.from('OggS fake opus'),
};

const drivers = selectedDrivers().filter((d) => d.dmFiles !== undefined);

describe.each(drivers.map((d) => [d.label, d] as const))('media contract: %s', (_label, driver: PlatformDriver) => {
  let model: FakeOpenAI;
  let gw: ContractGateway | null = null;
  const alice = driver.user(0);
  const send = (text: string, files: ContractFile[]) => {
    if (!driver.dmFiles) throw new Error('no dmFiles');
    return driver.dmFiles(alice, text, files);
  };
  const start = async (options: { dbPath?: string; mediaMaxBytes?: number } = {}) => {
    gw = await startContractGateway(driver, model, { allowed: [alice], ...options });
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

  it('a photo without a caption reaches the model as an image part whose bytes equal the photo', async () => {
    await start();
    model.script({ text: 'a lovely photo' });
    const sentPhoto = photo('solo');
    await send('', [sentPhoto]);
    await until('the answer', () => driver.sent().length > 0);
    expect(driver.sent()[0]?.text).toContain('a lovely photo');
    expect(imagePartsOf(chatRequests(model)[0])).toEqual([{ mimeType: 'image/png', data: sentPhoto.data }]);
  });

  it('a voice note becomes "[voice] <transcript>" through /audio/transcriptions', async () => {
    await start();
    model.scriptTranscription({ text: 'what is the weather today' });
    model.script({ text: 'sunny' });
    await send('', [voice]);
    await until('the answer', () => driver.sent().length > 0);
    expect(lastUserText(chatRequests(model)[0])).toBe('[voice] what is the weather today');
    expect(model.transcriptions).toHaveLength(1);
    expect(model.transcriptions[0]?.data.equals(voice.data)).toBe(true);
    expect(model.transcriptions[0]?.model).toBe('whisper-1');
  });

  it.skipIf(driver.oneFilePerMessage === true)(
    'several files in one message (an album on Telegram) are one turn with every image and the caption',
    async () => {
      await start();
      model.script({ text: 'two photos' });
      const [a, b] = [photo('first'), photo('second')];
      await send('compare these', [a, b]);
      await until('the answer', () => driver.sent().length > 0);
      expect(chatRequests(model)).toHaveLength(1);
      expect(lastUserText(chatRequests(model)[0])).toContain('compare these');
      expect(imagePartsOf(chatRequests(model)[0]).map((i) => i.data.toString())).toEqual([
        a.data.toString(),
        b.data.toString(),
      ]);
    },
  );

  it('a text document is inlined in a fenced block headed by its name', async () => {
    await start();
    model.script({ text: 'read it' });
    await send('what does it say?', [
      { kind: 'document', name: 'notes.txt', mimeType: 'text/plain', data: Buffer.from('remember the milk') },
    ]);
    await until('the answer', () => driver.sent().length > 0);
    expect(lastUserText(chatRequests(model)[0])).toBe('what does it say?\n\nnotes.txt:\n```\nremember the milk\n```');
  });

  it('bad input: a corrupt image, an empty file and an oversized one get a reply naming each; the chat goes on', async () => {
    await start({ mediaMaxBytes: 1024 });
    model.script({ text: 'noted' }, { text: 'still here' });
    await send('look', [
      { kind: 'document', name: 'broken.png', mimeType: 'image/png', data: Buffer.from('not an image at all') },
    ]);
    await until('the first answer', () => driver.sent().length > 0);
    await send('and this', [
      { kind: 'document', name: 'big.bin', mimeType: 'application/octet-stream', data: Buffer.alloc(4096, 7) },
    ]);
    await until('the second answer', () => driver.sent().length > 1);
    const [first, second] = driver.sent().map((m) => m.text);
    expect(first).toContain('broken.png is not an image I can read');
    expect(first).toContain('noted');
    expect(second).toContain('big.bin is 4 KB, over the 1 KB limit (media.max_bytes)');
    expect(second).toContain('still here');
    expect(lastUserText(chatRequests(model)[1])).toContain('and this');
    expect(imagePartsOf(chatRequests(model)[0])).toEqual([]);
  });

  it('bad input: a failing transcription endpoint and an unknown MIME type; each answered, the chat goes on', async () => {
    await start();
    model.scriptTranscription({ status: 503, message: 'stt is down' });
    model.script({ text: 'could not hear you' }, { text: 'a mystery file' });
    await send('', [voice]);
    await until('the first answer', () => driver.sent().length > 0);
    expect(driver.sent()[0]?.text).toContain(
      'I could not transcribe voice.ogg: the transcription endpoint answered HTTP 503',
    );
    expect(driver.sent()[0]?.text).toContain('could not hear you');
    expect(lastUserText(chatRequests(model)[0])).toMatch(
      /^\[audio voice\.ogg \(transcription failed\): \/.+voice\.ogg\]$/,
    );
    const odd: ContractFile = {
      kind: 'document',
      name: 'thing.xyz',
      mimeType: 'application/x-no-such-type',
      data: Buffer.from('?'),
    };
    await send('what is this', [odd]);
    await until('the second answer', () => driver.sent().length > 1);
    expect(driver.sent()[1]?.text).toContain('a mystery file');
    expect(lastUserText(chatRequests(model)[1])).toMatch(
      /^what is this\n\n\[file thing\.xyz \(application\/x-no-such-type, 1 byte\): \/.+thing\.xyz\]$/,
    );
  });

  it('restart between the download and the answer: the photo still reaches the model, answered once', async () => {
    const first = await start();
    model.script({ hang: true });
    const sentPhoto = photo('durable');
    await send('keep this', [sentPhoto]);
    await until('the turn running', () => chatRequests(model).length === 1);
    await first.stop();
    expect(driver.sent()).toHaveLength(0);
    model.script({ text: 'got it after the restart' });
    const second = await start({ dbPath: first.dbPath });
    await until('the answer', () => driver.sent().length > 0);
    await settleWithMarker(second, driver, alice); // a redelivered photo would come before it
    expect(answers(driver).map((m) => m.text)).toEqual([expect.stringContaining('got it after the restart')]);
    const last = chatRequests(model).at(-1);
    expect(imagePartsOf(last)).toEqual([{ mimeType: 'image/png', data: sentPhoto.data }]);
    expect(lastUserText(last)).toContain('keep this');
  });
});
