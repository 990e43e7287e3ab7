// Runs HERMES_HOME/BOOT.md on every gateway start: a one-shot agent with the gateway's own model,
// credentials and tools (send_message included), in the background so start-up never waits.
// Reply [SILENT] in the checklist when there is nothing to report. Only the BOOT.md the operator
// approved runs (`hermes trust approve boot:BOOT.md`): hermes.trustedFile reads it once and hands
// it out only when the hash of what it read is the approved one.
import type { GatewayHookApi } from '@hermes/plugin-sdk';

const SILENT = '[SILENT]';

function bootPrompt(checklist: string): string {
  return [
    'You are running a startup boot checklist. Follow the instructions below exactly.',
    '',
    '---',
    checklist,
    '---',
    '',
    'Execute each instruction. Use the send_message tool to deliver any messages to platforms',
    '(target "telegram", "discord" or "slack" is that platform\'s home channel).',
    `If nothing needs attention and there is nothing to report, reply with ONLY: ${SILENT}`,
  ].join('\n');
}

async function runChecklist(checklist: string, hermes: GatewayHookApi): Promise<void> {
  const result = await hermes.runAgent(bootPrompt(checklist), { maxIterations: 20 });
  const answer = result.text?.trim() ?? '';
  if (result.status !== 'completed') {
    hermes.logger.error(`boot-md agent failed: ${result.error ?? result.status}`);
  } else if (answer === '' || answer.includes(SILENT)) {
    hermes.logger.info('boot-md completed (nothing to report)');
  } else {
    hermes.logger.info(`boot-md completed: ${answer.slice(0, 200)}`);
  }
}

export async function handle(_event: string, _context: Record<string, unknown>, hermes: GatewayHookApi) {
  const file = await hermes.trustedFile('BOOT.md');
  if (file.state === 'missing') return; // no BOOT.md: nothing to do
  if (file.state !== 'approved') {
    const checklist = file.state === 'new' ? 'not approved' : 'changed since it was approved';
    hermes.logger.warn(
      `BOOT.md not run: ${checklist} (sha256 ${file.sha256.slice(0, 12)}); run \`hermes trust approve boot:BOOT.md\` and restart`,
    );
    return;
  }
  const checklist = file.content.trim();
  if (checklist === '') return;
  hermes.logger.info(`Running BOOT.md (${checklist.length} chars)`);
  // not awaited: the agent runs in the background and the gateway goes on starting
  void runChecklist(checklist, hermes).catch((err: unknown) =>
    hermes.logger.error(`boot-md agent failed: ${err instanceof Error ? err.message : String(err)}`),
  );
}
