// Images a tool shows the model (ToolContext.attachImage, e.g. a browser screenshot): the next
// request carries them as a user message right after the step's tool results, read from the file
// when the request is built; the transcript keeps only the tool's text; model.vision false shows
// none (attachImage answers false); auto retries a 400 once without them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatMessage, silentLogger, type ToolDefinition } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { imagePartsOf } from '../../../test/fakes/openai-server.js';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { ToolRegistry, TurnService } from '../src/index.js';
import { client, recordingBus } from './helpers.js';

const openai = useFakeOpenAI();
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('shot')]);

/** A tool that writes a PNG and shows it, answering whether it was shown. */
function snapTool(): ToolDefinition {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-tool-images-'));
  return {
    name: 'snap',
    toolset: 'test',
    schema: { name: 'snap', description: 'take a picture', parameters: { type: 'object', properties: {} } },
    handler: (_args, context) => {
      const path = join(dir, 'snap.png');
      writeFileSync(path, PNG);
      const shown = context.attachImage?.({ path, mimeType: 'image/png' }) ?? false;
      return { path, shown };
    },
  };
}

function service(vision: boolean | 'auto') {
  const { bus } = recordingBus();
  const tools = new ToolRegistry();
  tools.register(snapTool());
  const rows: ChatMessage[] = [];
  const turns = new TurnService({
    client: client(openai.server.url, bus, 0),
    model: 'tool-images-test',
    tools,
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
  const run = () =>
    turns.run({
      sessionId: 's1',
      platform: 'cli',
      userMessage: 'look',
      persist: 'after',
      approval: async () => 'deny',
    });
  return { run, rows };
}

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chats()[i]?.body?.messages ?? []) as { role: string; content: unknown }[];
const snap = { toolCalls: [{ name: 'snap', arguments: {} }] };

describe('images tools show the model', () => {
  it('go after the tool results as an image part equal to the file; the transcript keeps the text only', async () => {
    const { run, rows } = service(true);
    openai.server.script(snap, { text: 'I see it' });
    const result = await run();
    expect(result.status).toBe('completed');
    expect(imagePartsOf(chats()[0])).toEqual([]);
    expect(imagePartsOf(chats()[1])).toEqual([{ mimeType: 'image/png', data: PNG }]);
    const roles = messagesOf(1).map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(messagesOf(1).at(-1)?.content)).toMatch(/\[image from snap: \/.*snap\.png\]/);
    const tool = rows.find((m) => m.role === 'tool');
    expect(JSON.parse(String(tool?.content))).toMatchObject({ shown: true });
    expect(JSON.stringify(rows)).not.toContain('base64');
  });

  it('vision false: not shown, and the tool is told so', async () => {
    const { run, rows } = service(false);
    openai.server.script(snap, { text: 'ok' });
    await run();
    expect(imagePartsOf(chats()[1])).toEqual([]);
    expect(messagesOf(1).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.parse(String(rows.find((m) => m.role === 'tool')?.content))).toMatchObject({ shown: false });
  });

  it('vision auto: a 400 to the request with the image is retried once without it', async () => {
    const { run } = service('auto');
    const refuse = {
      status: 400,
      body: { error: { message: 'this model does not support image input', type: 'invalid_request_error' } },
    };
    openai.server.script(snap, refuse, { text: 'went on without it' });
    const result = await run();
    expect(result.finalText).toBe('went on without it');
    expect(imagePartsOf(chats()[1])).toHaveLength(1);
    expect(imagePartsOf(chats()[2])).toEqual([]);
  });
});
