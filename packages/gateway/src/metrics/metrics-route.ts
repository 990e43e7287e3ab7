/**
 * `GET /metrics` on the gateway's server, in the Prometheus text format. With API_SERVER_KEY set it
 * takes the same bearer key as the API platform; without one (then the gateway only listens on
 * loopback) it is open.
 */
import type { FastifyInstance } from 'fastify';
import { bearerMatches } from '../http/bearer.js';
import type { GatewayMetrics } from './gateway-metrics.js';

export const METRICS_PATH = '/metrics';

/** Registers the route on `app`. */
export function registerMetricsRoute(app: FastifyInstance, metrics: GatewayMetrics, apiKey: string | undefined): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (apiKey && !bearerMatches(request.headers.authorization, apiKey)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({
          error: {
            message: 'Missing or wrong API key (Authorization: Bearer <API_SERVER_KEY>)',
            type: 'authentication_error',
            code: null,
          },
        });
    }
    const body = await metrics.scrape();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(body);
  });
}
