// docs/platforms/write-your-own.md is runnable: its code blocks are the example plugin's files
// (docs/platforms/examples/echo-platform) to the byte, the plugin loads through the real loader as
// a user plugin and registers its platform, and its adapter answers over the fake Echo service.
// (The contract suite runs the same plugin through a gateway: test/contract/drivers/echo.ts.)
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, type PluginRecord, PluginRegistries } from '@hermes/plugins';
import { type PlatformFactory, silentLogger } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterHarness } from './contract/adapter-harness.js';
import { eventually, memoryState, recordingSink } from './contract/recorders.js';
import { startFakeEcho } from './fakes/echo-server.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const DOC = readFileSync(here('../docs/platforms/write-your-own.md'), 'utf8');
const EXAMPLE = here('../docs/platforms/examples/echo-platform');

/** The fenced blocks whose first line is `// file: x` or `# file: x`, by path. */
function fileBlocks(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const fence = /^```[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    const body = m[1] ?? '';
    const path = /^(?:\/\/|#) file: (\S+)\n/.exec(body)?.[1];
    if (path !== undefined) out.set(path, body);
  }
  return out;
}

let home = '';
let record: PluginRecord | undefined;
const registries = new PluginRegistries();

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'hermes-write-your-own-'));
  cpSync(EXAMPLE, join(home, 'plugins', 'echo-platform'), { recursive: true });
  const records = await loadPlugins({
    dirs: [{ dir: join(home, 'plugins'), source: 'user' }],
    enabled: ['echo-platform'],
    disabled: [],
    env: { ECHO_TOKEN: 'doc-token' },
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    logger: silentLogger,
    host: { registries },
    aliases: { '@hermes/plugin-sdk': here('../packages/plugin-sdk/src/index.ts') },
  });
  record = records.find((r) => r.key === 'echo-platform');
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('docs/platforms/write-your-own.md', () => {
  it('shows every file of the example plugin exactly as it is kept', () => {
    const blocks = fileBlocks(DOC);
    const files = readdirSync(EXAMPLE).sort();
    expect([...blocks.keys()].sort()).toEqual(files);
    for (const file of files) expect(blocks.get(file), file).toBe(readFileSync(join(EXAMPLE, file), 'utf8'));
  });

  it('is linked from the platforms page and the plugins page', () => {
    expect(readFileSync(here('../docs/platforms/README.md'), 'utf8')).toContain('(write-your-own.md)');
    expect(readFileSync(here('../docs/plugins.md'), 'utf8')).toContain('(platforms/write-your-own.md)');
  });

  it('loads through the real loader as a user plugin and registers the echo platform', () => {
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    const factory = registries.platforms.get('echo')?.factory as PlatformFactory | undefined;
    expect(factory?.name).toBe('echo');
    expect(factory?.hasCredentials({ ECHO_TOKEN: 'x' })).toBe(true);
    expect(factory?.hasCredentials({})).toBe(false);
  });

  it('the loaded adapter connects, hands a message to the gateway, sends the answer and stops', async () => {
    const factory = registries.platforms.get('echo')?.factory as PlatformFactory;
    const fake = await startFakeEcho({ token: 'doc-token', longPollMs: 100 });
    const h = adapterHarness({
      platform: 'echo',
      fake,
      env: { ECHO_TOKEN: 'doc-token' },
      settings: { api_url: fake.url },
      create: (context) => factory.create(context),
    });
    try {
      // the sink stores the offset in the adapter's state, as the gateway does in the accept's transaction
      const state = memoryState();
      const adapter = h.adapter({ state });
      const recorder = recordingSink(state);
      await adapter.start(recorder.sink);
      expect(adapter.status().state).toBe('connected');
      fake.push({ chat: { id: 'c1', type: 'dm' }, from: { id: 'u1', name: 'Ada' }, text: 'hello' });
      // a failure names what the adapter was doing
      await eventually(
        () => recorder.events.length === 1,
        5_000,
        () =>
          `the event (polls ${fake.polls()}, status ${JSON.stringify(adapter.status())}, log ${JSON.stringify(h.lines)})`,
      );
      expect(recorder.events[0]).toMatchObject({ platform: 'echo', kind: 'text', text: 'hello', messageId: '1' });
      expect(state.values.get('offset')).toBe('2'); // the next poll asks from after it: never handed over twice
      expect(recorder.events[0]?.source).toMatchObject({ chatId: 'c1', chatType: 'dm', userId: 'u1' });
      const text = adapter.format('| a | b |\n|---|---|\n| **1** | 2 |');
      expect(text).toBe('a | b\n--+--\n1 | 2');
      expect(await adapter.send({ chatId: 'c1', text, formatted: true })).toEqual({ ok: true, messageIds: ['2'] });
      fake.rateLimitNextSend(1500);
      expect(await adapter.send({ chatId: 'c1', text: 'x', formatted: false })).toMatchObject({
        ok: false,
        error: 'rate_limited',
        retryAfterMs: 1500,
      });
      await adapter.stop();
      expect(adapter.status().state).toBe('stopped');
      expect(recorder.attempts).toHaveLength(1);
      expect(() => factory.create(h.context({ settings: { api_url: 42 } }))).toThrow(
        /gateway\.platforms\.echo\.api_url/,
      );
    } finally {
      await h.close();
    }
  });

  it("its lazy-SDK sample is the Telegram plugin's factory, as kept (so it compiles and runs with the plugin)", () => {
    const section = DOC.slice(DOC.indexOf('## A heavy SDK'), DOC.indexOf('## Example: Echo'));
    const sample = /^```ts\n([\s\S]*?)^```[ \t]*$/m.exec(section)?.[1];
    expect(sample).toBe(readFileSync(here('../plugins/platforms/telegram/factory.ts'), 'utf8'));
  });
});
