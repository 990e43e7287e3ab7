// Test harness for the Discord adapter: the fake Discord, an in-memory PlatformContext, a recording sink and logger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InboundSink, Logger, MessageEvent, PlatformAdapter, PlatformContext } from '@hermes/protocol';
import { type FakeDiscord, startFakeDiscord } from '../../../../test/fakes/discord-server.js';
import { createDiscordAdapter, type DiscordAdapterDeps } from '../adapter.js';

/** Shaped like a real token (base64 id, timestamp, HMAC) so the redaction patterns are exercised. */
export const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhErMs.TEST-discord-token-secret-0123456789abcd';

export const ADA = { id: '100000000000000001', name: 'Ada' };
export const BOB = { id: '100000000000000002', name: 'Bob' };

export interface LogLine {
  level: string;
  obj: unknown;
  msg: string | undefined;
}

/** A Logger that keeps every line. */
export function recordingLogger(lines: LogLine[] = []): { logger: Logger; lines: LogLine[] } {
  const at =
    (level: string) =>
    (obj: unknown, msg?: string): void => {
      lines.push(typeof obj === 'string' ? { level, obj: null, msg: obj } : { level, obj, msg });
    };
  const logger: Logger = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
  };
  return { logger, lines };
}

/** A sink that records accepted events; failNext(n) makes the next n accept() calls throw. */
export function recordingSink(): {
  sink: InboundSink;
  events: MessageEvent[];
  attempts: MessageEvent[];
  failNext(times?: number): void;
} {
  const events: MessageEvent[] = [];
  const attempts: MessageEvent[] = [];
  let failures = 0;
  return {
    events,
    attempts,
    failNext: (times = 1) => {
      failures += times;
    },
    sink: {
      async accept(event) {
        attempts.push(event);
        if (failures > 0) {
          failures -= 1;
          throw new Error('sink: database is locked');
        }
        events.push(event);
      },
    },
  };
}

/** In-memory platform state. */
export function memoryState(initial: Record<string, string> = {}): PlatformContext['state'] & {
  values: Map<string, string>;
} {
  const values = new Map(Object.entries(initial));
  return { values, get: (key) => values.get(key), set: (key, value) => void values.set(key, value) };
}

export const GATEWAY_COMMANDS = [
  { name: 'help', description: 'list the commands' },
  { name: 'new', description: 'start a fresh session' },
  { name: 'queue', description: '/queue TEXT: answer TEXT after the running turn' },
];

export interface HarnessOptions {
  settings?: Record<string, unknown>;
  state?: PlatformContext['state'];
  deps?: DiscordAdapterDeps;
  commands?: readonly { name: string; description: string }[];
  env?: Record<string, string>;
}

export interface Harness {
  fake: FakeDiscord;
  cacheDir: string;
  lines: LogLine[];
  /** builds a context on the fake (settings merged over `{ api_base: fake.apiBase, slash_commands: false }`) */
  context(options?: HarnessOptions): PlatformContext;
  adapter(options?: HarnessOptions): PlatformAdapter;
  /** stops every adapter made, removes the cache folder, closes the fake */
  close(): Promise<void>;
}

/** Starts a fake Discord and hands out adapters wired to it. */
export async function startHarness(): Promise<Harness> {
  const fake = await startFakeDiscord({ token: TOKEN });
  const cacheDir = mkdtempSync(join(tmpdir(), 'hermes-discord-'));
  const { logger, lines } = recordingLogger();
  const adapters: PlatformAdapter[] = [];
  const context = (options: HarnessOptions = {}): PlatformContext => ({
    settings: { api_base: fake.apiBase, slash_commands: false, ...options.settings },
    env: { DISCORD_BOT_TOKEN: TOKEN, ...options.env },
    logger,
    cacheDir,
    state: options.state ?? memoryState(),
    commands: () => options.commands ?? GATEWAY_COMMANDS,
    route: () => {
      throw new Error('discord adds no HTTP routes');
    },
  });
  return {
    fake,
    cacheDir,
    lines,
    context,
    adapter(options = {}) {
      const adapter = createDiscordAdapter(context(options), { sleep: async () => {}, ...options.deps });
      adapters.push(adapter);
      return adapter;
    },
    async close() {
      await Promise.all(adapters.map((adapter) => adapter.stop()));
      await fake.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns true (or fails after `timeoutMs`). */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('eventually: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves with the next event the recorder accepts (removing it). */
export async function nextEvent(events: MessageEvent[], timeoutMs = 5000): Promise<MessageEvent> {
  await eventually(() => events.length > 0, timeoutMs);
  const event = events.shift();
  if (event === undefined) throw new Error('no event');
  return event;
}
