// WhatsApp through `hermes gateway run`: the bundled plugin loaded on its credentials, the webhook
// served on the gateway's own server (Meta's GET verification, signed POSTs from the fake's webhook
// sender), answers through the fake Graph API (test/fakes/whatsapp-server.ts), the fake model behind.
// One gateway for the file.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagePartsOf } from '../fakes/openai-server.js';
import { type FakeWhatsApp, postWebhook, startFakeWhatsApp } from '../fakes/whatsapp-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const VERIFY_TOKEN = 'e2e-verify-token-41d8';
const ALICE = { from: '15551230001', name: 'Alice' };
const STRANGER = { from: '15559990002', name: 'Mallory' };

const openai = useFakeOpenAI();
let wa: FakeWhatsApp;
let gw: RunningGateway;
let home: string;
let target: string;

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const webhookUrl = () => `${gw.url}/whatsapp/webhook`;
const deliver = async (payload: unknown) => {
  const res = await wa.deliver(webhookUrl(), payload);
  expect(res.status).toBe(200);
};
const texts = () => wa.sent.filter((m) => m.type === 'text').map((m) => m.text);

beforeAll(async () => {
  wa = await startFakeWhatsApp();
  home = tempHome();
  target = join(home, 'victim');
  writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\n');
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    WHATSAPP_ACCESS_TOKEN: wa.token,
    WHATSAPP_PHONE_NUMBER_ID: wa.phoneNumberId,
    WHATSAPP_APP_SECRET: wa.appSecret,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_API_URL: wa.apiUrl,
    WHATSAPP_ALLOWED_USERS: ALICE.from,
  });
});
afterAll(async () => {
  const code = await gw?.stop();
  await wa?.close();
  expect(code).toBe(0);
  const log = gw.stderr();
  for (const secret of [wa.token, wa.appSecret, VERIFY_TOKEN]) expect(log).not.toContain(secret);
});
beforeEach(() => wa.reset());

describe('WhatsApp through hermes gateway run', () => {
  it("Meta's webhook verification is answered with the challenge, a wrong verify token gets 403; health says connected", async () => {
    const verify = (token: string) =>
      fetch(`${webhookUrl()}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`);
    const ok = await verify(VERIFY_TOKEN);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    expect((await verify('wrong')).status).toBe(403);
    const health = (await (await fetch(`${gw.url}/health`)).json()) as { platforms: Record<string, { state: string }> };
    expect(health.platforms.whatsapp?.state).toBe('connected');
  });

  it('a signed DM is answered in WhatsApp markup, marked read with typing; forged and unsigned posts are refused', async () => {
    const forged = wa.webhooks.envelope({ messages: [wa.webhooks.text(ALICE, 'forged hello')], sender: ALICE });
    expect((await postWebhook(webhookUrl(), forged, { signature: `sha256=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await postWebhook(webhookUrl(), forged, { signature: null })).status).toBe(401);
    expect((await postWebhook(webhookUrl(), forged, { appSecret: 'not-the-app-secret' })).status).toBe(401);
    // the model answers once the message was marked read with the typing indicator (shown after 300 ms)
    openai.server.respond(async () => {
      await waitFor(() => wa.reads.length > 0, { what: 'the read mark with typing' });
      return { text: 'Hello from **Hermes**' };
    });
    const message = wa.webhooks.text(ALICE, 'hi bot');
    await deliver(wa.webhooks.envelope({ messages: [message], sender: ALICE }));
    await waitFor(() => texts().length > 0, { what: 'the answer' });
    expect(wa.sent[0]).toMatchObject({ to: ALICE.from, type: 'text', text: 'Hello from *Hermes*' });
    expect(chats()).toHaveLength(1); // the forged posts never reached the model
    expect(JSON.stringify(chats()[0]?.body?.messages)).not.toContain('forged hello');
    expect(wa.reads).toEqual([{ messageId: message.id, typing: true }]);
    openai.server.respond(undefined);
  });

  it('a redelivered webhook is answered once', async () => {
    openai.server.script({ text: 'only once' }, { text: 'the marker' });
    const payload = wa.webhooks.envelope({ messages: [wa.webhooks.text(ALICE, 'deliver me twice')], sender: ALICE });
    await deliver(payload);
    await waitFor(() => texts().length > 0, { what: 'the answer' });
    await deliver(payload); // Meta retries a delivery it thinks failed
    await deliver(wa.webhooks.envelope({ messages: [wa.webhooks.text(ALICE, 'marker')], sender: ALICE }));
    await waitFor(() => texts().includes('the marker'), { what: 'the marker answer' });
    expect(texts()).toEqual(['only once', 'the marker']);
    expect(chats()).toHaveLength(2);
  });

  it('an unknown number gets a pairing code and nothing else', async () => {
    const ask = wa.webhooks.text(STRANGER, 'let me in');
    await deliver(wa.webhooks.envelope({ messages: [ask], sender: STRANGER }));
    await waitFor(() => texts().length > 0, { what: 'the pairing reply' });
    expect(wa.sent).toHaveLength(1);
    expect(wa.sent[0]?.to).toBe(STRANGER.from);
    expect(wa.sent[0]?.text).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(chats()).toHaveLength(0);
  });

  it('a photo reaches the model with its bytes and a voice note as its transcript, both fetched by media id', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('whatsapp jpeg '.repeat(200))]);
    const image = wa.webhooks.media(ALICE, 'image', {
      id: wa.addMedia(photo, 'image/jpeg'),
      mimeType: 'image/jpeg',
      caption: 'what is this?',
    });
    openai.server.script({ text: 'a photo of text' }, { text: 'noted your voice' });
    await deliver(wa.webhooks.envelope({ messages: [image], sender: ALICE }));
    await waitFor(() => texts().length > 0, { what: 'the photo answer' });
    expect(imagePartsOf(chats()[0])).toEqual([{ mimeType: 'image/jpeg', data: photo }]);
    openai.server.scriptTranscription({ text: 'remind me to call mum' });
    const voice = wa.webhooks.media(ALICE, 'audio', {
      id: wa.addMedia(Buffer.from('OggS opus bytes'), 'audio/ogg'),
      mimeType: 'audio/ogg; codecs=opus',
      voice: true,
    });
    await deliver(wa.webhooks.envelope({ messages: [voice], sender: ALICE }));
    await waitFor(() => texts().length > 1, { what: 'the voice answer' });
    const messages = chats()[1]?.body?.messages as { role: string; content: unknown }[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: '[voice] remind me to call mum' });
    expect(openai.server.transcriptions[0]?.data.toString()).toBe('OggS opus bytes');
    const downloads = wa.calls.filter((c) => c.path.startsWith('/download/'));
    expect(downloads.map((c) => c.authorization)).toEqual([`Bearer ${wa.token}`, `Bearer ${wa.token}`]);
  });

  it('approvals by reply buttons: "Allow once" pressed by the asker runs the command; the press is answered', async () => {
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep.txt'), 'x');
    const command = `rm -rf ${target}/*`;
    openai.server.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'deleted' });
    await deliver(
      wa.webhooks.envelope({ messages: [wa.webhooks.text(ALICE, 'clean up the victim folder')], sender: ALICE }),
    );
    await waitFor(() => wa.sent.some((m) => m.type === 'interactive'), { what: 'the approval prompt' });
    const prompt = wa.sent.find((m) => m.type === 'interactive');
    expect(prompt?.text).toContain(command);
    expect(prompt?.buttons.map((b) => b.title)).toEqual(['Allow once', 'Allow this session', 'Deny']);
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    const once = prompt?.buttons.find((b) => b.title === 'Allow once');
    const press = wa.webhooks.buttonReply(ALICE, { id: once?.id ?? '', title: 'Allow once' }, prompt?.id ?? '');
    await deliver(wa.webhooks.envelope({ messages: [press], sender: ALICE }));
    await waitFor(() => texts().includes('deleted') && texts().includes('Approved once.'), {
      what: 'the answer to the press and the answer after the approval',
    });
    expect(wa.sent.find((m) => m.text === 'Approved once.')?.replyTo).toBe(press.id);
    expect(existsSync(join(target, 'keep.txt'))).toBe(false);
  });
});
