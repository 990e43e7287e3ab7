/** Registers the console on a gateway's server (called by `buildServer` when `console` is given). */
import type { Logger } from '@hermes/protocol';
import type { FastifyInstance } from 'fastify';
import { registerActionRoutes } from './action-routes.js';
import { ConsoleAuth, installConsoleAuth } from './auth.js';
import { registerAuthRoutes } from './auth-routes.js';
import type { ConsoleContext, ConsoleGatewayPort } from './context.js';
import { registerDataRoutes } from './data-routes.js';
import { registerEventsRoute } from './events-route.js';
import { SECURITY_HEADERS } from './headers.js';
import type { ConsoleServerOptions } from './ports.js';
import { redactJson } from './redact-json.js';
import { registerTrustRoutes } from './trust-routes.js';

export interface RegisterConsoleOptions {
  options: ConsoleServerOptions;
  /** the server listens on a loopback address */
  loopback: boolean;
  apiKey: string | undefined;
  logger: Logger;
  redact?: (text: string) => string;
  version: string;
  startedAt: number;
  cluster?: ConsoleContext['cluster'];
}

export function registerConsole(
  app: FastifyInstance,
  gateway: ConsoleGatewayPort,
  o: RegisterConsoleOptions,
): ConsoleAuth {
  const tokens = [o.options.token, o.apiKey];
  // no login only on loopback with the terminal tool off and no token set (docs/console.md)
  const operatorOnLoopback = o.loopback && o.options.loopbackOperator === true;
  const auth = new ConsoleAuth({ loginRequired: !operatorOnLoopback || tokens.some((t) => t), tokens });
  installConsoleAuth(app, auth);
  const ctx: ConsoleContext = {
    gateway,
    options: o.options,
    auth,
    logger: o.logger,
    redact: o.redact ?? ((text) => text),
    version: o.version,
    startedAt: o.startedAt,
    ...(o.cluster ? { cluster: o.cluster } : {}),
  };
  void app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.headers(SECURITY_HEADERS);
      return payload;
    });
    // every text of every JSON answer through the redactor (transcripts, errors, log records)
    scope.addHook('preSerialization', async (_request, _reply, payload) => redactJson(payload, ctx.redact));
    const { registerStaticRoutes } = await import('./static-routes.js');
    await registerStaticRoutes(scope, o.options.dist);
    registerAuthRoutes(scope, ctx);
    registerDataRoutes(scope, ctx);
    registerActionRoutes(scope, ctx);
    registerTrustRoutes(scope, ctx);
    registerEventsRoute(scope, ctx);
  });
  return auth;
}
