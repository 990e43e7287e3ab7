// The media step inside the gateway pipeline: a photo sent while a turn runs in steer mode is not
// reduced to its caption (it waits for a turn of its own), and a plain text message never goes
// through the media step.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { imagePartsOf } from '../fakes/openai-server.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const media = { maxBytes: 1024 * 1024, cacheDays: 7, stt: null };
const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('media in the pipeline', () => {
  it('steer mode: a photo sent mid-turn gets its own turn with the image, not a caption steered in', async () => {
    h = await startHarness(openai.server, { settings: { busyMode: 'steer', media } });
    const dir = mkdtempSync(join(tmpdir(), 'hermes-steer-'));
    const path = join(dir, 'p.gif');
    writeFileSync(path, 'GIF89a tiny gif');
    openai.server.script({ text: 'first answer', delayMs: 300 }, { text: 'about the gif' });
    await h.platform.inject('hello');
    await waitFor(() => chats().length === 1);
    await h.platform.injectFiles('', [{ kind: 'photo', path, fileName: 'p.gif', mimeType: 'image/gif' }]);
    await waitFor(() => h !== null && h.platform.sent.length >= 2);
    expect(chats()).toHaveLength(2);
    expect(imagePartsOf(chats()[1])).toEqual([{ mimeType: 'image/gif', data: Buffer.from('GIF89a tiny gif') }]);
  });

  it('a voice note without a transcription endpoint: a note naming the cached file reaches the model', async () => {
    h = await startHarness(openai.server, { settings: { media } });
    const dir = mkdtempSync(join(tmpdir(), 'hermes-voice-'));
    const path = join(dir, 'v.ogg');
    writeFileSync(path, 'OggS');
    openai.server.script({ text: 'ok' });
    await h.platform.injectFiles('', [{ kind: 'audio', path, fileName: 'v.ogg', mimeType: 'audio/ogg' }]);
    await waitFor(() => h !== null && h.platform.sent.length >= 1);
    const messages = chats()[0]?.body?.messages as { role: string; content: string }[];
    expect(messages.at(-1)?.content).toBe(`[audio v.ogg (not transcribed: no transcription endpoint): ${path}]`);
  });
});
