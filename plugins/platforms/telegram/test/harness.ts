// Test harness for the Telegram adapter: an in-memory PlatformContext, a recording sink and logger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  InboundSink,
  Logger,
  MessageEvent,
  PlatformAdapter,
  PlatformContext,
  RouteRequest,
  RouteResponse,
} from '@hermes/protocol';
import { type FakeTelegram, startFakeTelegram } from '../../../../test/fakes/telegram-server.js';
import { createTelegramAdapter, type TelegramAdapterDeps } from '../adapter.js';

export const TOKEN = '123456:TEST-token';
export const BOT_ID = 123456;

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

type AcceptOptions = Parameters<InboundSink['accept']>[1];

/**
 * A sink that records accepted events; failNext(n) makes the next n accept() calls throw. Given a
 * state, it stores `options.state` there on success, as the gateway does in its accept transaction.
 */
export function recordingSink(state?: PlatformContext['state']): {
  sink: InboundSink;
  events: MessageEvent[];
  attempts: MessageEvent[];
  options: AcceptOptions[];
  failNext(times?: number): void;
  onAccept(fn: (event: MessageEvent) => void): void;
} {
  const options: AcceptOptions[] = [];
  const events: MessageEvent[] = [];
  const attempts: MessageEvent[] = [];
  let failures = 0;
  let hook: ((event: MessageEvent) => void) | undefined;
  return {
    events,
    attempts,
    options,
    failNext: (times = 1) => {
      failures += times;
    },
    onAccept: (fn) => {
      hook = fn;
    },
    sink: {
      async accept(event, acceptOptions) {
        attempts.push(event);
        options.push(acceptOptions);
        hook?.(event);
        if (failures > 0) {
          failures -= 1;
          throw new Error('sink: database is locked');
        }
        events.push(event);
        for (const [key, value] of Object.entries(acceptOptions?.state ?? {})) state?.set(key, value);
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

export type RouteHandler = (request: RouteRequest) => Promise<RouteResponse>;

export interface Harness {
  fake: FakeTelegram;
  cacheDir: string;
  lines: LogLine[];
  routes: Map<string, RouteHandler>;
  /** builds a context on the fake (settings merged over `{ poll_timeout_s: 1 }`) */
  context(settings?: Record<string, unknown>, state?: PlatformContext['state']): PlatformContext;
  adapter(options?: {
    settings?: Record<string, unknown>;
    state?: PlatformContext['state'];
    deps?: TelegramAdapterDeps;
  }): PlatformAdapter;
  /** stops every adapter made, removes the cache folder, closes the fake */
  close(): Promise<void>;
}

/** Starts a fake Telegram and hands out adapters wired to it. */
export async function startHarness(fakeOptions: { longPollCapMs?: number } = {}): Promise<Harness> {
  const fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: fakeOptions.longPollCapMs ?? 500 });
  const cacheDir = mkdtempSync(join(tmpdir(), 'hermes-telegram-'));
  const { logger, lines } = recordingLogger();
  const routes = new Map<string, RouteHandler>();
  const adapters: PlatformAdapter[] = [];
  const context = (
    settings: Record<string, unknown> = {},
    state: PlatformContext['state'] = memoryState(),
  ): PlatformContext => ({
    settings: { api_root: fake.apiRoot, poll_timeout_s: 1, ...settings },
    env: { TELEGRAM_BOT_TOKEN: TOKEN },
    logger,
    cacheDir,
    state,
    commands: () => [],
    route: (method, path, handler) => {
      const key = `${method} ${path}`;
      if (routes.has(key)) throw new Error(`route ${key} registered twice`);
      routes.set(key, handler);
    },
  });
  return {
    fake,
    cacheDir,
    lines,
    routes,
    context,
    adapter(options = {}) {
      const adapter = createTelegramAdapter(context(options.settings, options.state), {
        sleep: async () => {},
        ...options.deps,
      });
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
