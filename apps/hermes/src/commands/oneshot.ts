/** `hermes -z PROMPT`: one turn, only the final answer on stdout; failures are one line on stderr. */
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { createAgentRuntime } from '../runtime.js';
import { runCliTurn } from '../session-turn.js';

/** Runs the one-shot command. */
export async function runOneShot(prompt: string, options: GlobalOptions): Promise<void> {
  if (prompt.trim() === '') throw new CliExit(2, 'the prompt given to -z is empty');
  const rt = await createAgentRuntime(options, { yolo: options.yolo ?? false });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const session = rt.store.sessions.create({ key: `cli:oneshot`, platform: 'cli', model: rt.model });
    // non-interactive: dangerous commands are denied unless --yolo
    const result = await runCliTurn(rt, {
      sessionId: session.id,
      text: prompt,
      requestApproval: rt.approvalGate(session.id),
      signal: controller.signal,
    });
    rt.store.sessions.end(session.id, result.status);
    await rt.hooks.invoke('on_session_finalize', { sessionId: session.id, platform: 'cli' });
    if (result.status !== 'completed' || result.finalText === null) {
      const reason = result.error?.message ?? result.status;
      rt.logger.error({ status: result.status, code: result.error?.code }, `one-shot failed: ${reason}`);
      throw new CliExit(result.status === 'interrupted' ? 130 : 1, reason);
    }
    process.stdout.write(`${result.finalText}\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await rt.close();
  }
}
