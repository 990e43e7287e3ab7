// Rich messages on Discord end to end (issue 18): `hermes gateway run` with the real discord.js
// against the fake Discord and the fake model. A photo reaches the model as an image part with the
// photo's bytes; a voice note becomes "[voice] <transcript>"; an answer's MEDIA line arrives as an
// attachment without the line; with streaming on the answer is one message edited at least twice,
// ending with the full text. One gateway for the file, streaming on for Discord throughout.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, type SentMessage, startFakeDiscord } from '../fakes/discord-server.js';
import { FAKE_PNG, imagePartsOf, type RecordedRequest } from '../fakes/openai-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const TOKEN = 'MTc3NzAxODE3NzAxODE3NzAxOA.E2eRch.E2E-RICH-discord-token-0123456789abcdefg';
const ADA = { id: '377000000000000018', name: 'ada' };
/** streaming off by default, on for Discord (the per-platform override) */
const config = (apiBase: string) => `display:
  streaming: false
  stream_interval_ms: 200
gateway:
  platforms:
    discord:
      api_base: ${apiBase}
      streaming: true
`;

const openai = useFakeOpenAI();
let discord: FakeDiscord;
let gw: RunningGateway;
let home: string;

beforeAll(async () => {
  discord = await startFakeDiscord({ token: TOKEN });
  home = tempHome();
  writeFileSync(join(home, 'config.yaml'), config(discord.apiBase));
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_ALLOWED_USERS: ADA.id,
  });
  await discord.until(() => discord.latestReady(), 10_000, 'a ready gateway connection');
}, 30_000);
afterAll(async () => {
  try {
    expect(await gw?.stop()).toBe(0);
    expect(gw?.stderr() ?? '').not.toContain(TOKEN);
  } finally {
    await discord?.close();
  }
});
beforeEach(() => discord.reset());

const chats = (): RecordedRequest[] => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** what a message the bot sent shows now: its newest edit, or its content */
const shown = (m: SentMessage): string => discord.edits.findLast((e) => e.id === m.id)?.content ?? m.content;
const texts = () => discord.sent.filter((m) => m.files === undefined);
const answered = (text: string) => discord.until(() => texts().some((m) => shown(m) === text), 10_000, text);

describe('rich messages through hermes gateway run (Discord)', () => {
  it('a photo reaches the model as an image part whose bytes equal the photo', async () => {
    const photo = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('e2e ')]);
    openai.server.script({ text: 'a photo of text' });
    discord.dmMessage({
      user: ADA,
      content: '',
      attachments: [{ data: photo, fileName: 'photo.png', contentType: 'image/png' }],
    });
    await answered('a photo of text');
    expect(imagePartsOf(chats()[0])).toEqual([{ mimeType: 'image/png', data: photo }]);
  });

  it('a voice note becomes "[voice] <transcript>" through /audio/transcriptions', async () => {
    openai.server.scriptTranscription({ text: 'remind me to call mum' });
    openai.server.script({ text: 'noted your voice' });
    discord.dmMessage({
      user: ADA,
      content: '',
      attachments: [{ data: 'OggS opus bytes', fileName: 'voice.ogg', contentType: 'audio/ogg' }],
    });
    await answered('noted your voice');
    const messages = chats()[0]?.body?.messages as { role: string; content: unknown }[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: '[voice] remind me to call mum' });
    expect(openai.server.transcriptions[0]?.data.toString()).toBe('OggS opus bytes');
    // tts.voice_answers auto: a voice note is answered with voice too, an audio file after the text
    await discord.until(() => discord.sent.some((m) => m.files !== undefined), 10_000, 'the voice answer');
    const voice = discord.sent.flatMap((m) => m.files ?? []);
    expect(voice.map((f) => f.fileName)).toEqual([expect.stringMatching(/^voice-[0-9a-f]{16}\.opus$/)]);
    expect(openai.server.requests.filter((r) => r.path.endsWith('/audio/speech'))).toHaveLength(1);
  });

  it('an answer with a MEDIA line arrives as an attachment, the line never shown', async () => {
    // in read_file's roots (HERMES_HOME/cache), which MEDIA lines obey
    mkdirSync(join(home, 'cache', 'charts'), { recursive: true });
    const png = join(home, 'cache', 'charts', 'chart.png');
    writeFileSync(png, FAKE_PNG);
    // streamed in pieces: the line must not show mid-stream either
    openai.server.script({ text: `Your chart:\nMEDIA: ${png}`, chunkDelayMs: 300 });
    discord.dmMessage({ user: ADA, content: 'chart please' });
    await discord.until(() => discord.sent.some((m) => m.files !== undefined), 10_000, 'the attachment');
    await answered('Your chart:');
    const uploads = discord.sent.flatMap((m) => m.files ?? []);
    expect(uploads).toEqual([
      { fileName: 'chart.png', contentType: 'image/png', size: FAKE_PNG.length, sha256: sha(FAKE_PNG) },
    ]);
    expect(discord.sent.find((m) => m.files !== undefined)?.channel_id).toBe(discord.dmChannelId(ADA));
    const everything = [...discord.sent.map((m) => m.content), ...discord.edits.map((e) => e.content)];
    expect(everything.join('\n')).not.toContain('MEDIA');
    expect(texts()).toHaveLength(1);
  });

  it('streaming on: the answer is one message edited at least twice, ending with the full text', async () => {
    const answer = 'Streaming works: **every** word arrives, edit by edit.';
    openai.server.script({ text: answer, chunkDelayMs: 300 });
    discord.dmMessage({ user: ADA, content: 'stream it' });
    await discord.until(() => discord.edits.some((e) => e.content === answer), 10_000, 'the final edit');
    expect(texts()).toHaveLength(1);
    const id = texts()[0]?.id;
    expect(discord.edits.length).toBeGreaterThanOrEqual(2);
    expect(discord.edits.every((e) => e.id === id)).toBe(true);
    expect(discord.edits.at(-1)?.content).toBe(answer);
    expect(chats()[0]?.body?.stream).toBe(true);
  });
});
