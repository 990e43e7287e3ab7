/**
 * One agent turn outside any chat (a gateway hook's `runAgent`): the gateway's model, tools
 * (send_message included) and plugin hooks through the turn service; nothing is stored; cut off
 * when the gateway stops.
 */
import type { TurnService } from '@hermes/agent';
import type { HookAgentResult, Logger } from '@hermes/protocol';
import { failureMessage } from './failure-reply.js';

export async function runOneShotTurn(
  turns: TurnService,
  prompt: string,
  options: { name: string; maxIterations?: number; signal: AbortSignal; logger: Logger; now: number },
): Promise<HookAgentResult> {
  const { logger } = options;
  if (options.signal.aborted) return { status: 'interrupted', text: null, error: 'the gateway is stopping' };
  try {
    const result = await turns.run({
      sessionId: `hook-${options.name}-${options.now.toString(36)}`,
      platform: 'gateway',
      history: [],
      userMessage: prompt,
      persist: 'none',
      approval: { surface: 'gateway', key: `hook:${options.name}` },
      logger: logger.child({ hook: options.name }),
      ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
      signal: options.signal,
    });
    return {
      status: result.status,
      text: result.finalText === null ? null : turns.redact(result.finalText),
      ...(result.error ? { error: failureMessage(result.error, result.status, logger) } : {}),
    };
  } catch (err) {
    return { status: 'failed', text: null, error: failureMessage(err, 'failed', logger) };
  }
}
