/**
 * Stage 5, commands: `/name args` runs from the command table (built-in, then plugin commands) and
 * fires the `command:*` gateway event; its answer is delivered. `/queue` and `/steer` hand their
 * text to the session's lane, which answers (and marks) the message under its inbox id; so does a
 * skill's `/name text`, as a turn on the skill's instructions and the text.
 */
import type { Logger } from '@hermes/protocol';
import { type CommandContext, type CommandServices, runCommand, skillTurnText } from '../commands.js';
import type { GatewayEvents } from '../gateway-events.js';
import type { BusyMode, SubmitOutcome } from '../session-lanes.js';
import type { LaneJob, StageInput } from './input.js';
import type { PipelineOutcome } from './outcome.js';

export interface CommandPorts {
  logger: Logger;
  events: Pick<GatewayEvents, 'emit'>;
  /** delivers the command's answer; `settleWith` is applied to the inbox row once it is delivered */
  reply(input: StageInput, text: string, settleWith: PipelineOutcome | null): Promise<void>;
  /** the inbox row now belongs to a lane (counts as an attempt, like a resume) */
  markProcessing(inboxId: number): void;
  settle(inboxId: number, outcome: PipelineOutcome): Promise<unknown>;
  /** the lane-independent services: sessions, status text, plugins, home channel */
  services: Omit<CommandServices, 'enqueue'>;
  submit(sessionKey: string, job: LaneJob, mode: BusyMode): SubmitOutcome;
  /** how a skill command's turn meets a running one (display.busy_input_mode, as for messages; default queue) */
  busyMode?: BusyMode;
  /** whether the session key's turn is running here (the console's session list) */
  busy?(sessionKey: string): boolean;
}

export async function runCommandStage(
  ports: CommandPorts,
  input: StageInput,
  command: { name: string; args: string },
): Promise<PipelineOutcome> {
  const { event, sessionKey, inboxId, acceptedAt } = input;
  const ctx: CommandContext = {
    platform: event.platform,
    chatId: event.source.chatId,
    userId: event.source.userId,
    sessionKey,
    args: command.args,
  };
  ports.events.emit(`command:${command.name}`, {
    platform: event.platform,
    user_id: event.source.userId,
    command: command.name,
    args: command.args,
  });
  const services: CommandServices = {
    ...ports.services,
    enqueue: (c, mode) => {
      if (!c.args) return `Usage: /${mode} TEXT`;
      ports.markProcessing(inboxId);
      const outcome = ports.submit(c.sessionKey, { inboxId, event, sessionKey, text: c.args, acceptedAt }, mode);
      return outcome === 'started' ? '' : mode === 'steer' ? 'Handed to the running answer.' : 'Queued.';
    },
  };
  let reply: string;
  try {
    const skillText = await skillTurnText(command.name, command.args, services);
    if (skillText !== null) {
      ports.markProcessing(inboxId);
      ports.submit(sessionKey, { inboxId, event, sessionKey, text: skillText, acceptedAt }, ports.busyMode ?? 'queue');
      return { kind: 'handed_on' };
    }
    reply = await runCommand(command.name, ctx, services);
  } catch (err) {
    ports.logger.warn({ err, command: command.name }, `command /${command.name} failed`);
    reply = `/${command.name} failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  const handedOn = (command.name === 'queue' || command.name === 'steer') && command.args !== '';
  if (reply) {
    await ports.reply(input, reply, handedOn ? null : { kind: 'answered' });
    return handedOn ? { kind: 'handed_on' } : { kind: 'answered' };
  }
  if (handedOn) return { kind: 'handed_on' };
  await ports.settle(inboxId, { kind: 'answered' });
  return { kind: 'answered' };
}
