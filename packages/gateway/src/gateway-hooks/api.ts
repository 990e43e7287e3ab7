/** Builds the API object a gateway hook's `handle` receives as its third argument. */
import type { GatewayHookApi, HookAgentResult, HookSendResult, Logger } from '@hermes/protocol';
import { readTrustedFile, type TrustedHashes } from './trusted-file.js';

/** What the running gateway provides to hooks. */
export interface HookHost {
  home: string;
  logger: Logger;
  send(target: string, text: string): Promise<HookSendResult>;
  runAgent(prompt: string, options: { name: string; maxIterations?: number }): Promise<HookAgentResult>;
  /** approved sha256 per HERMES_HOME file (BOOT.md), for `trustedFile`; absent: none approved */
  trusted?: TrustedHashes;
}

/** The API of one hook: its logger and calls carry the hook's name. */
export function hookApi(host: HookHost, name: string): GatewayHookApi {
  const logger = host.logger.child({ hook: name });
  return {
    name,
    logger,
    home: host.home,
    send: (target, text) => host.send(target, text),
    runAgent: (prompt, options = {}) => host.runAgent(prompt, { name, ...options }),
    trustedFile: (file) => readTrustedFile(host.home, host.trusted ?? {}, file),
  };
}

/** A dry-run host for `hermes hooks test`: sends and agent runs are recorded, not performed. */
export function dryRunHost(home: string, logger: Logger, trusted: TrustedHashes = {}): HookHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    home,
    logger,
    trusted,
    calls,
    async send(target, text) {
      calls.push(`send ${target}: ${text}`);
      return { ok: true };
    },
    async runAgent(prompt, options) {
      calls.push(`runAgent (${options.name}): ${prompt.slice(0, 80)}${prompt.length > 80 ? '…' : ''}`);
      return { status: 'unavailable', text: null, error: 'dry run: no agent in hermes hooks test' };
    },
  };
}
