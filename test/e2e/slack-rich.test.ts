// Rich messages on Slack end to end (issue 18): `hermes gateway run` with the real Bolt (Socket
// Mode) against the fake Slack and the fake model. A photo reaches the model as an image part with
// the photo's bytes; a voice note becomes "[voice] <transcript>"; an answer's MEDIA line arrives as a
// shared file without the line; with streaming on the answer is one message edited at least twice,
// ending with the full text. One gateway for the file, streaming on for Slack throughout.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_PNG, imagePartsOf, type RecordedRequest } from '../fakes/openai-server.js';
import { type FakeSlack, type PostedMessage, type SlackFile, startFakeSlack } from '../fakes/slack-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const BOT_TOKEN = 'xoxb-7770187770-7770187771-E2eRichBotToken';
const APP_TOKEN = 'xapp-1-A0E2ERICH1-7770187772-E2eRichAppToken';
const ADA = { id: 'U0ADA0018', dm: 'D0ADA0018' };
/** streaming off by default, on for Slack (the per-platform override) */
const config = (apiUrl: string) => `display:
  streaming: false
  stream_interval_ms: 200
gateway:
  platforms:
    slack:
      api_url: ${apiUrl}
      mode: socket
      streaming: true
`;

const openai = useFakeOpenAI();
let slack: FakeSlack;
let gw: RunningGateway;
let home: string;

beforeAll(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN, pingIntervalMs: 5_000 });
  slack.addUser({ id: ADA.id, name: 'ada' });
  home = tempHome();
  writeFileSync(join(home, 'config.yaml'), config(slack.apiUrl));
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_ALLOWED_USERS: ADA.id,
  });
  await slack.waitForLiveSocket(10_000);
}, 30_000);
afterAll(async () => {
  try {
    expect(await gw?.stop()).toBe(0);
    const log = gw?.stderr() ?? '';
    expect(log).not.toContain(BOT_TOKEN);
    expect(log).not.toContain(APP_TOKEN);
  } finally {
    await slack?.close();
  }
});
beforeEach(() => slack.reset());

const chats = (): RecordedRequest[] => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** what a message the bot posted shows now: its newest chat.update, or its text */
const shown = (m: PostedMessage): string =>
  slack.updates.findLast((u) => u.channel === m.channel && u.ts === m.ts)?.text ?? m.text;

const answered = (text: string) => waitFor(() => slack.posted.some((m) => shown(m) === text), { what: text });

/** a DM from Ada sharing `files` (subtype file_share, each served at its url_private) */
function shareFiles(files: SlackFile[]): void {
  slack.pushMessage({ channel: ADA.dm, user: ADA.id, text: '', channelType: 'im', subtype: 'file_share', files });
}

describe('rich messages through hermes gateway run (Slack, Socket Mode)', () => {
  it('a photo reaches the model as an image part whose bytes equal the photo', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('e2e jpeg '.repeat(50))]);
    openai.server.script({ text: 'a photo of text' });
    shareFiles([slack.addFile({ name: 'photo.jpg', mimetype: 'image/jpeg', data: photo })]);
    await answered('a photo of text');
    expect(imagePartsOf(chats()[0])).toEqual([{ mimeType: 'image/jpeg', data: photo }]);
    expect(slack.downloads).toHaveLength(1);
    expect(slack.downloads[0]?.authorized).toBe(true);
  });

  it('a voice note becomes "[voice] <transcript>" through /audio/transcriptions', async () => {
    openai.server.scriptTranscription({ text: 'remind me to call mum' });
    openai.server.script({ text: 'noted your voice' });
    shareFiles([slack.addFile({ name: 'voice.ogg', mimetype: 'audio/ogg', data: 'OggS opus bytes' })]);
    await answered('noted your voice');
    const messages = chats()[0]?.body?.messages as { role: string; content: unknown }[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: '[voice] remind me to call mum' });
    expect(openai.server.transcriptions[0]?.data.toString()).toBe('OggS opus bytes');
    // tts.voice_answers auto: a voice note is answered with voice too, a shared audio file after the text
    await waitFor(() => slack.sharedFiles.length > 0, { what: 'the voice answer' });
    expect(slack.sharedFiles[0]?.name).toMatch(/^voice-[0-9a-f]{16}\.opus$/);
  });

  it('an answer with a MEDIA line arrives as a shared file, the line never shown', async () => {
    // in read_file's roots (HERMES_HOME/cache), which MEDIA lines obey
    mkdirSync(join(home, 'cache', 'charts'), { recursive: true });
    const png = join(home, 'cache', 'charts', 'chart.png');
    writeFileSync(png, FAKE_PNG);
    // streamed in pieces: the line must not show mid-stream either
    openai.server.script({ text: `Your chart:\nMEDIA: ${png}`, chunkDelayMs: 300 });
    slack.pushMessage({ channel: ADA.dm, user: ADA.id, text: 'chart please', channelType: 'im' });
    await waitFor(() => slack.sharedFiles.length > 0, { what: 'the shared file' });
    await answered('Your chart:');
    expect(slack.sharedFiles).toHaveLength(1);
    expect(slack.sharedFiles[0]).toMatchObject({ channel: ADA.dm, name: 'chart.png', size: FAKE_PNG.length });
    expect(slack.sharedFiles[0]?.sha256).toBe(sha(FAKE_PNG));
    const everything = [...slack.posted.map((m) => m.text), ...slack.updates.map((u) => u.text)];
    expect(everything.join('\n')).not.toContain('MEDIA');
    expect(slack.posted).toHaveLength(1);
  });

  it('streaming on: the answer is one message edited at least twice, ending with the full text', async () => {
    // Slack's mrkdwn: **bold** is sent as *bold*
    const answer = 'Streaming works: **every** word arrives, edit by edit.';
    const final = 'Streaming works: *every* word arrives, edit by edit.';
    openai.server.script({ text: answer, chunkDelayMs: 300 });
    slack.pushMessage({ channel: ADA.dm, user: ADA.id, text: 'stream it', channelType: 'im' });
    await waitFor(() => slack.updates.some((u) => u.text === final), { what: 'the final edit' });
    expect(slack.posted).toHaveLength(1);
    const ts = slack.posted[0]?.ts;
    expect(slack.updates.length).toBeGreaterThanOrEqual(2);
    expect(slack.updates.every((u) => u.channel === ADA.dm && u.ts === ts)).toBe(true);
    expect(slack.updates.at(-1)?.text).toBe(final);
    expect(chats()[0]?.body?.stream).toBe(true);
  });
});
