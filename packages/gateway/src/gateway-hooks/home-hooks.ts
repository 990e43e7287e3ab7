/**
 * The gateway hooks of HERMES_HOME/hooks in `gateway run`: discovered, filtered by the operator's
 * consent (the caller's `approve`: the CLI asks or reads the consent file), then subscribed to the
 * gateway's events in their worker thread, where a hook that throws, exits or loops cannot stop or
 * stall the gateway.
 */
import { join } from 'node:path';
import type { HookAgentResult, HookSendResult, Logger } from '@hermes/protocol';
import { attachGatewayHookThreads, type GatewayHookThreads } from './attach.js';
import { discoverGatewayHooks, type GatewayHookSpec } from './discover.js';
import type { GatewayEvents } from './gateway-events.js';

export interface HomeHookOptions {
  home: string;
  logger: Logger;
  events: GatewayEvents;
  /** the hooks the operator approved of those discovered (the rest are skipped with a warning) */
  approve: (discovered: readonly GatewayHookSpec[], logger: Logger) => readonly GatewayHookSpec[];
  send: (target: string, text: string) => Promise<HookSendResult>;
  runAgent: (prompt: string, options: { name: string; maxIterations?: number }) => Promise<HookAgentResult>;
  /** module aliases a hook's handler may import (the bundled packages) */
  aliases: Record<string, string>;
  timeoutMs: number;
  /** approved sha256 per HERMES_HOME file (BOOT.md) for `hermes.trustedFile`; absent: none approved */
  trusted?: Readonly<Record<string, string>>;
}

export interface HomeHooks {
  threads: GatewayHookThreads | null;
  hooks: readonly GatewayHookSpec[];
}

export function attachHomeHooks(options: HomeHookOptions): HomeHooks {
  const { logger } = options;
  const discovered = discoverGatewayHooks(join(options.home, 'hooks'));
  for (const s of discovered.skipped)
    logger.warn({ dir: s.dir, code: s.code }, `gateway hook folder skipped: ${s.reason}`);
  const hooks = options.approve(discovered.hooks, logger);
  if (hooks.length === 0) return { threads: null, hooks };
  const host = {
    home: options.home,
    logger,
    send: options.send,
    runAgent: options.runAgent,
    trusted: options.trusted ?? {},
  };
  const threads = attachGatewayHookThreads(options.events, hooks, {
    host,
    logger,
    aliases: options.aliases,
    timeoutMs: options.timeoutMs,
  });
  logger.info(
    { hooks: hooks.map((h) => h.name) },
    `gateway hooks attached (their worker thread starts at the first of their events): ${hooks.map((h) => `${h.name} (${h.events.join(', ')})`).join('; ')}`,
  );
  return { threads, hooks };
}
