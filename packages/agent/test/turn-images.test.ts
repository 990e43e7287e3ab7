// Images in a turn: content parts built from the cached file at request time, a reference in the
// transcript, and model.vision (true / false / auto with the fallback on a 400).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatMessage, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { imagePartsOf } from '../../../test/fakes/openai-server.js';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { ToolRegistry, TurnService } from '../src/index.js';
import { client, recordingBus } from './helpers.js';

const openai = useFakeOpenAI();
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('pixels'.repeat(50)),
]);

function cachedImage(): { path: string; mimeType: string; name: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-images-'));
  const path = join(dir, 'AgAD1-photo.png');
  writeFileSync(path, PNG);
  return { path, mimeType: 'image/png', name: 'photo.png' };
}

function service(vision: boolean | 'auto') {
  const { bus } = recordingBus();
  const rows: ChatMessage[] = [];
  const turns = new TurnService({
    client: client(openai.server.url, bus, 0),
    model: 'vision-test',
    tools: new ToolRegistry(),
    toolsets: ['*'],
    env: {},
    hooks: bus,
    logger: silentLogger,
    cwd: process.cwd(),
    maxIterations: 5,
    toolTimeoutMs: 5_000,
    vision,
    transcripts: { list: () => [...rows], append: (_id, m) => rows.push(...m) },
  });
  const run = (text: string, images = [cachedImage()]) =>
    turns.run({
      sessionId: 's1',
      platform: 'telegram',
      userMessage: text,
      images,
      persist: 'after',
      approval: async () => 'deny',
    });
  return { run, rows };
}

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const refuse = {
  status: 400,
  body: { error: { message: 'this model does not support image input', type: 'invalid_request_error' } },
};

describe('images in a turn', () => {
  it('reach the model as an image_url part whose bytes equal the file; the transcript keeps the path, not the bytes', async () => {
    const { run, rows } = service(true);
    openai.server.script({ text: 'a nice photo' });
    const result = await run('what is this?');
    expect(result.status).toBe('completed');
    expect(imagePartsOf(chats()[0])).toEqual([{ mimeType: 'image/png', data: PNG }]);
    const user = rows[0];
    expect(user?.role).toBe('user');
    expect(typeof user?.content).toBe('string');
    expect(user?.content).toContain('what is this?');
    expect(user?.content).toMatch(/\[image photo\.png: \/.*AgAD1-photo\.png\]/);
    expect(JSON.stringify(rows)).not.toContain('base64');
  });

  it('vision false: no image part, a note naming the cached path', async () => {
    const { run } = service(false);
    openai.server.script({ text: 'ok' });
    await run('');
    expect(imagePartsOf(chats()[0])).toEqual([]);
    const messages = chats()[0]?.body?.messages as ChatMessage[];
    expect(messages.at(-1)?.content).toMatch(
      /not shown \(vision is off \(model\.vision\)\); the file is at \/.*photo\.png/,
    );
  });

  it('vision auto: a 400 is retried once without the image, and vision stays off for that model', async () => {
    const { run, rows } = service('auto');
    openai.server.script(refuse, { text: 'I cannot see images, but the file is saved' }, { text: 'second' });
    const first = await run('look');
    expect(first.status).toBe('completed');
    expect(first.finalText).toContain('cannot see');
    expect(imagePartsOf(chats()[0])).toHaveLength(1);
    expect(imagePartsOf(chats()[1])).toEqual([]);
    expect(JSON.stringify(chats()[1]?.body?.messages)).toMatch(/model refused image input\); the file is at/);
    expect(rows[0]?.content).toMatch(/model refused image input/);
    await run('and this one?');
    expect(chats()).toHaveLength(3);
    expect(imagePartsOf(chats()[2])).toEqual([]);
  });

  it('vision true: a 400 is not retried without the image (the turn fails)', async () => {
    const { run } = service(true);
    openai.server.script(refuse);
    const result = await run('look');
    expect(result.status).toBe('failed');
    expect(chats()).toHaveLength(1);
  });
});
