/**
 * `GET /console/api/events`: Server-Sent Events. `platforms` at connect and whenever a platform's
 * state changes (checked every second), `metrics` every 2 s, `log` for each new record at or above
 * info. Each stream has its own sampler and timers, all cleared when the client goes.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteGuard } from '../http/request-guard.js';
import { streamLimiterOf } from '../http/stream-limiter.js';
import type { ConsoleContext } from './context.js';
import { SECURITY_HEADERS } from './headers.js';
import { LEVEL_NUMBERS } from './log-ring.js';
import { MetricsSampler } from './metrics-sampler.js';
import { platformsView } from './overview.js';
import { redactJson } from './redact-json.js';

export function registerEventsRoute(app: FastifyInstance, ctx: ConsoleContext): void {
  const platformsMs = ctx.options.intervals?.platformsMs ?? 1000;
  const metricsMs = ctx.options.intervals?.metricsMs ?? 2000;
  const open = new Set<(destroy?: boolean) => void>();
  // an open stream would keep the server from closing
  app.addHook('preClose', async () => {
    for (const close of [...open]) close(true);
  });
  app.get('/console/api/events', { config: { guard: 'console' satisfies RouteGuard } }, async (request, reply) => {
    const admitted = streamLimiterOf(request).admit(request.ip);
    if ('refused' in admitted) return reply.code(429).header('retry-after', '5').send({ error: admitted.refused });
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // the stream is the connection's last answer: when it ends (client gone, server closing) the socket goes too
      connection: 'close',
    });
    const send = (event: string, data: unknown) => {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(redactJson(data, ctx.redact))}\n\n`);
    };
    let lastPlatforms = JSON.stringify(platformsView(ctx));
    send('platforms', JSON.parse(lastPlatforms));
    const sampler = new MetricsSampler(() => ctx.gateway.metrics.consoleSnapshot());
    void sampler.sample(); // the baseline
    const platformsTimer = setInterval(() => {
      const now = JSON.stringify(platformsView(ctx));
      if (now !== lastPlatforms) {
        lastPlatforms = now;
        send('platforms', JSON.parse(now));
      }
    }, platformsMs);
    const metricsTimer = setInterval(() => {
      sampler.sample().then(
        (s) => send('metrics', s),
        () => {},
      );
    }, metricsMs);
    const unsubscribe =
      ctx.options.logs?.subscribe((record) => {
        if (LEVEL_NUMBERS[record.level] >= LEVEL_NUMBERS.info) send('log', record);
      }) ?? (() => {});
    /** `destroy`: the server is closing; the socket goes at once (a client may keep it half-open) */
    const close = (destroy = false) => {
      admitted.release();
      open.delete(close);
      clearInterval(platformsTimer);
      clearInterval(metricsTimer);
      unsubscribe();
      if (!res.writableEnded) res.end();
      if (destroy) res.socket?.destroy();
    };
    request.raw.on('close', () => close());
    res.on('close', () => close());
    open.add(close);
  });
}
