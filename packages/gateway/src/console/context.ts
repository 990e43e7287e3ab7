/** What every console route module gets: the gateway, the options, the auth state, the log. */
import type { Logger, PlatformState } from '@hermes/protocol';
import type { FastifyRequest } from 'fastify';
import type { ConsoleMetricsSnapshot } from '../metrics/gateway-metrics.js';
import type { CommandPorts } from '../pipeline/command.js';
import { type ConsoleAuth, consoleSession } from './auth.js';
import type { ConsoleServerOptions } from './ports.js';

/** What the console asks of the gateway; `Gateway` satisfies it. */
export interface ConsoleGatewayPort {
  /** the command ports the console's stop/reset and session data go through; `userId`: who acts */
  commandPorts(userId: string): CommandPorts;
  platformStates(): Record<string, PlatformState>;
  readonly metrics: {
    consoleSnapshot(): Promise<ConsoleMetricsSnapshot>;
    platform(name: string): { readonly reconnects: { readonly value: number } };
  };
}

export interface ConsoleContext {
  gateway: ConsoleGatewayPort;
  options: ConsoleServerOptions;
  auth: ConsoleAuth;
  /** the console's logger (`component: console`) */
  logger: Logger;
  redact: (text: string) => string;
  version: string;
  startedAt: number;
  cluster?: { status(): Promise<unknown>; standby(platform: string): boolean };
}

/** The actor of a request the guard let through (a console session, or `loopback` without a login). */
export function actorOf(request: FastifyRequest): string {
  return consoleSession(request)?.actor ?? 'unknown';
}

/** Logs an action at info with who did it: `console: <actor> <action> <target>`. */
/** The audit line of a console action: the session's actor (how it logged in, which session) and the client's address. */
export function logAction(ctx: ConsoleContext, actor: string, action: string, target: string, ip?: string): void {
  const from = ip === undefined ? '' : ` from ${ip}`;
  ctx.logger.info(
    { actor, action, target, ...(ip === undefined ? {} : { ip }) },
    `console: ${actor} ${action} ${target}${from}`,
  );
}

/** A string field of a JSON body, or null. */
export function bodyString(body: unknown, key: string): string | null {
  if (body === null || typeof body !== 'object') return null;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' && value.length <= 500 ? value : null;
}
