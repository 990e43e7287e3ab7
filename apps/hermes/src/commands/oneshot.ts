/** `hermes -z PROMPT`: one turn, only the final answer on stdout; failures are one line on stderr. */
import { join } from 'node:path';
import { userFacingError } from '@hermes/agent';
import { CLI_IDENTITY } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { createAgentRuntime } from '../runtime.js';
import { cliSessionKey, cliTurnJob, cliTurnService, runCliTurn } from '../session-turn.js';

function logFile(rt: { paths: { logs: string } }): string {
  return join(rt.paths.logs, 'cli.log');
}

/** Runs the one-shot command. */
export async function runOneShot(prompt: string, options: GlobalOptions): Promise<void> {
  if (prompt.trim() === '') throw new CliExit(2, 'the prompt given to -z is empty');
  const rt = await createAgentRuntime(options, { yolo: options.yolo ?? false });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    cliTurnService(rt); // an unknown context.engine stops here, before a session is made
    const key = cliSessionKey('cli-oneshot');
    const session = await rt.store.sessions.create({ key, platform: 'cli', model: rt.model, userKey: CLI_IDENTITY });
    // non-interactive: dangerous commands are denied unless --yolo
    const sink = { kind: 'stdout' as const, sessionId: session.id, requestApproval: rt.approvalGate(session.id) };
    const result = await runCliTurn(rt, cliTurnJob('cli-oneshot', prompt, { ...sink, signal: controller.signal }));
    await rt.store.sessions.end(session.id, result.status);
    await rt.hooks.invoke('on_session_finalize', { sessionId: session.id, platform: 'cli', reason: 'exit' });
    if (result.status !== 'completed' || result.finalText === null) {
      const detail = result.error?.message ?? result.status;
      const facing = userFacingError(result.error ?? new Error(`the turn ended ${result.status}`));
      rt.logger.error({ status: result.status, code: facing.code }, `one-shot failed: ${detail}`);
      // the plain sentence and code; the detail (endpoint, reason) is in the log, redacted
      throw new CliExit(result.status === 'interrupted' ? 130 : 1, `${facing.message} Details: ${logFile(rt)}`);
    }
    process.stdout.write(`${result.finalText}\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await rt.close();
  }
}
