// Test harness for the Slack adapter: the fake Slack, an in-memory PlatformContext, a recording sink and logger.
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
import { type FakeSlack, type FakeSlackOptions, startFakeSlack } from '../../../../test/fakes/slack-server.js';
import { createSlackAdapter, type SlackAdapterDeps } from '../adapter.js';

export const BOT_TOKEN = 'xoxb-1234567890-0987654321-TestBotTokenSecret';
export const APP_TOKEN = 'xapp-1-A0TESTAPP01-1234567890-TestAppTokenSecret';
export const SIGNING_SECRET = 'test-signing-secret-8f14e45fceea167a';
export const BOT_USER = 'UBOT0001';

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

/** Every logged line as one searchable text. */
export function logText(lines: readonly LogLine[]): string {
  return lines.map((line) => `${line.level} ${line.msg ?? ''} ${JSON.stringify(line.obj)}`).join('\n');
}

/** A sink that records accepted events; failNext(n) makes the next n accept() calls throw. */
export function recordingSink(): {
  sink: InboundSink;
  events: MessageEvent[];
  attempts: MessageEvent[];
  failNext(times?: number): void;
  /** makes accept() wait until the returned release function is called */
  hold(): () => void;
} {
  const events: MessageEvent[] = [];
  const attempts: MessageEvent[] = [];
  let failures = 0;
  let gate: Promise<void> | undefined;
  return {
    events,
    attempts,
    failNext: (times = 1) => {
      failures += times;
    },
    hold() {
      let release: () => void = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    sink: {
      async accept(event) {
        attempts.push(event);
        if (gate !== undefined) await gate;
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

export type RouteHandler = (request: RouteRequest) => Promise<RouteResponse>;

export interface Harness {
  fake: FakeSlack;
  cacheDir: string;
  lines: LogLine[];
  routes: Map<string, RouteHandler>;
  context(settings?: Record<string, unknown>, state?: PlatformContext['state']): PlatformContext;
  /** an adapter on the fake (socket mode unless settings say `mode: 'http'`), stopped by close() */
  adapter(options?: {
    settings?: Record<string, unknown>;
    state?: PlatformContext['state'];
    deps?: SlackAdapterDeps;
  }): PlatformAdapter;
  /** the HTTP events route handler (default path) */
  route(path?: string): RouteHandler;
  /** a RouteRequest as the gateway's server hands it over, signed unless told otherwise */
  signed(body: unknown, options?: Parameters<FakeSlack['signedRequest']>[1]): RouteRequest;
  /** stops every adapter made, removes the cache folder, closes the fake */
  close(): Promise<void>;
}

export const TEST_SETTINGS = { liveness_timeout_ms: 400, resolve_user_names: false };

/** Starts a fake Slack and hands out adapters wired to it. */
export async function startHarness(fakeOptions: FakeSlackOptions = {}): Promise<Harness> {
  const fake = await startFakeSlack({
    botToken: BOT_TOKEN,
    appToken: APP_TOKEN,
    signingSecret: SIGNING_SECRET,
    botUserId: BOT_USER,
    ...fakeOptions,
  });
  const cacheDir = mkdtempSync(join(tmpdir(), 'hermes-slack-'));
  const { logger, lines } = recordingLogger();
  const routes = new Map<string, RouteHandler>();
  const adapters: PlatformAdapter[] = [];
  const context = (
    settings: Record<string, unknown> = {},
    state: PlatformContext['state'] = memoryState(),
  ): PlatformContext => ({
    settings: { api_url: fake.apiUrl, ...TEST_SETTINGS, ...settings },
    env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET },
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
      const adapter = createSlackAdapter(context(options.settings, options.state), {
        sleep: async () => {},
        ...options.deps,
      });
      adapters.push(adapter);
      return adapter;
    },
    route(path = '/slack/events') {
      const handler = routes.get(`POST ${path}`);
      if (handler === undefined) throw new Error(`no route POST ${path}`);
      return handler;
    },
    signed(body, options) {
      const request = fake.signedRequest(body, options);
      return { headers: request.headers, body: typeof body === 'string' ? undefined : body, rawBody: request.rawBody };
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

/** Waits `ms` (only where a test must show that something does NOT happen). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
