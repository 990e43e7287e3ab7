// The web adapter behind a real Fastify server on 127.0.0.1 with the gateway's own request guard,
// error answers and platform-route wiring (multipart bodies, streamed answers, the Host check), and
// a recording sink in place of the pipeline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addPlatformRoutes, type Gateway, type RouteDefinition } from '@hermes/gateway';
import type { PlatformAdapter, PlatformContext, RouteRequest, WebIdentity } from '@hermes/protocol';
import Fastify from 'fastify';
import { installApiErrors } from '../../../../packages/gateway/src/http/api-error.js';
import { createRequestGuard } from '../../../../packages/gateway/src/http/request-guard.js';
import { guardChecks } from '../../../../packages/gateway/src/http/server.js';
import {
  type LogLine,
  memoryState,
  type RecordingSink,
  recordingLogger,
  recordingSink,
} from '../../../../test/contract/recorders.js';
import { createWebAdapter } from '../adapter.js';
import { ChatStreams } from '../chat-streams.js';

export * from '../../../../test/contract/recorders.js';

export interface WebHarness {
  url: string;
  adapter: PlatformAdapter;
  recorder: RecordingSink;
  streams: ChatStreams;
  cacheDir: string;
  lines: LogLine[];
  close(): Promise<void>;
}

export interface WebHarnessOptions {
  mediaMaxBytes?: number;
  /** stands in for the gateway's console session (RouteRequest.console) */
  consoleSession?: (headers: RouteRequest['headers']) => WebIdentity | null;
}

export async function startWebHarness(options: WebHarnessOptions = {}): Promise<WebHarness> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'hermes-web-'));
  const { logger, lines } = recordingLogger();
  const routes: RouteDefinition[] = [];
  const streams = new ChatStreams({ heartbeatMs: 60_000 });
  const context: PlatformContext = {
    settings: {},
    env: {},
    logger,
    cacheDir,
    ...(options.mediaMaxBytes === undefined ? {} : { mediaMaxBytes: options.mediaMaxBytes }),
    state: memoryState(),
    commands: () => [],
    route: (method, path, handler, routeOptions) => {
      const session = options.consoleSession;
      const withSession: typeof handler =
        session === undefined ? handler : (request) => handler({ ...request, console: session(request.headers) });
      routes.push({ method, path, handler: withSession, ...routeOptions });
    },
  };
  const adapter = createWebAdapter(context, { streams });
  const recorder = recordingSink();
  await adapter.start(recorder.sink);
  const app = Fastify({ logger: false });
  installApiErrors(app, logger);
  app.addHook('onRequest', createRequestGuard({ checks: guardChecks('api-key'), allowedHosts: [], corsOrigins: [] }));
  addPlatformRoutes(app, { routes } as unknown as Gateway);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    adapter,
    recorder,
    streams,
    cacheDir,
    lines,
    async close() {
      await adapter.stop();
      await app.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** A browser: keeps the `hermes_web` cookie and the CSRF token the session route gives. */
export interface Browser {
  cookie: string;
  csrf: string;
  userId: string;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  postForm(form: FormData, headers?: Record<string, string>): Promise<Response>;
}

export async function openBrowser(url: string): Promise<Browser> {
  const res = await fetch(`${url}/chat/api/session`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrf, userId } = (await res.json()) as { csrf: string; userId: string };
  const headersFor = (extra: Record<string, string>) => ({ cookie, 'x-hermes-csrf': csrf, ...extra });
  return {
    cookie,
    csrf,
    userId,
    post: (body, headers = {}) =>
      fetch(`${url}/chat/api/messages`, {
        method: 'POST',
        headers: headersFor({ 'content-type': 'application/json', ...headers }),
        body: JSON.stringify(body),
      }),
    postForm: (form, headers = {}) =>
      fetch(`${url}/chat/api/messages`, { method: 'POST', headers: headersFor(headers), body: form }),
  };
}

export { readSse, type SseEvent } from '../../../../test/helpers/sse-client.js';
